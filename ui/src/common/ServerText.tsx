// A server's text (a name, title or description) as a model gets it: every character a person
// would not see is shown where it is, marked (`⟦U+202E⟧`), with what a run of tag characters
// spells; the kind is named on hover (docs/hidden-text.md).
import { useTranslation } from "react-i18next";
import { markOf, textParts } from "./hiddenText";

export function ServerText({ text }: { text: string }) {
  const { t } = useTranslation("common");
  const parts = textParts(text);
  if (parts.every((part) => part.kind === "plain")) return <>{text}</>;
  return (
    <>
      {parts.map((part, i) =>
        part.kind === "plain" ? (
          part.text
        ) : (
          <mark key={i} className="hidden-char" data-testid="hidden-char" data-kind={part.hidden} title={t(`hiddenText.${part.hidden}`)}>
            {markOf(part)}
          </mark>
        ),
      )}
    </>
  );
}
