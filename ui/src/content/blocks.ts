// MCP content as the UI words it: the engine reads every block, resource and result
// (vocabulary/views/content.rs) and says what was off as a `ContentProblem`; this file only
// puts those problems into the UI's language.
import type { ContentProblem } from "../bindings/ContentProblem";
import i18n from "../i18n";

/** What the engine found off in content, in the UI's language. */
export function problemText(problem: ContentProblem): string {
  return i18n.t(`content:problems.${problem.kind}`, {
    type: "type" in problem ? problem.type : "",
    mimeType: "mime_type" in problem ? problem.mime_type : "",
  });
}
