// A tool's name as the lists show it: hidden characters marked (ServerText), and the letters of
// another script in a name that mixes them the way spoofing does (`sеnd_email` with a Cyrillic
// `е`) marked where they are, with a badge: the two `send_email`s of a list no longer look the
// same. Which letters is the engine's answer (`name_scripts.rs`, the view's `odd_letters`).
import { useTranslation } from "react-i18next";
import type { OddLetter } from "../bindings/OddLetter";
import { ServerText } from "./ServerText";

export function NameText({ name, odd }: { name: string; odd: readonly OddLetter[] }) {
  const { t } = useTranslation("common");
  if (odd.length === 0) return <ServerText text={name} />;
  const at = new Map(odd.map((o) => [o.at, o]));
  const parts: React.ReactNode[] = [];
  let plain = "";
  // Characters, not UTF-16 units: the engine counts Unicode scalar values.
  Array.from(name).forEach((c, i) => {
    const letter = at.get(i);
    if (!letter) {
      plain += c;
      return;
    }
    if (plain) parts.push(<ServerText key={`p${i}`} text={plain} />);
    plain = "";
    parts.push(
      <mark
        key={i}
        className="odd-letter"
        data-testid="odd-letter"
        data-script={letter.script}
        title={t("oddLetter", { codePoint: letter.code_point, script: letter.script, main: letter.main })}
      >
        {c}
      </mark>,
    );
  });
  if (plain) parts.push(<ServerText key="end" text={plain} />);
  const first = odd[0]!;
  return (
    <>
      {parts}
      <span className="badge badge-mixed" data-testid="mixed-scripts-badge" title={t("mixedScriptsHint", { main: first.main })}>
        {t("mixedScripts")}
      </span>
    </>
  );
}
