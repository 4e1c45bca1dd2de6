// What the engine found off in something a server sent (`OffSpec`), in the UI's language: a
// request's params, the server's identity.
import type { OffSpec } from "../bindings/OffSpec";
import i18n from ".";

export function offSpecText(problem: OffSpec): string {
  switch (problem.kind) {
    case "not_an_object":
      return i18n.t("answering:parse.paramsNotObject");
    case "missing":
      return i18n.t("answering:parse.missing", { field: problem.field });
    case "wrong_type":
      return i18n.t("answering:parse.wrongType", { field: problem.field, expected: problem.expected });
  }
}
