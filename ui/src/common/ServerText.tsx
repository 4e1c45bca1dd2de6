// A server's text (a name, title or description) as a model gets it: every character a person
// would not see is shown where it is, marked (`⟦U+202E⟧`), with what a run of tag characters
// spells; the kind is named on hover (docs/hidden-text.md).
import { useTranslation } from "react-i18next";
import { hasHidden, markOf, textParts } from "./hiddenText";

export function ServerText({ text }: { text: string }) {
  const { t } = useTranslation("common");
  // Most text hides nothing: one pass over it, and no parts built (results can be large).
  if (!hasHidden(text)) return <>{text}</>;
  const parts = textParts(text);
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
