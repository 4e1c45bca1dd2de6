import { useState } from "react";
import { useTranslation } from "react-i18next";
import { hasHidden } from "../common/hiddenText";
import { ServerMarkdown } from "../common/ServerMarkdown";
import { ServerText } from "../common/ServerText";

/** The server's instructions: Markdown (no raw HTML), or the plain text with its line breaks
 * and every hidden character marked where it is. Instructions holding hidden characters open
 * as plain text: Markdown would show them as nothing (docs/hidden-text.md). */
export function Instructions({ text }: { text: string }) {
  const { t } = useTranslation("overview");
  const hidden = hasHidden(text);
  const [plain, setPlain] = useState(hidden);
  return (
    <div className="instructions" data-testid="server-instructions">
      <header className="instructions-header">
        <h3>{t("instructions.title")}</h3>
        <label className="checkbox-label" title={t("instructions.plainTitle")}>
          <input type="checkbox" checked={plain} onChange={(e) => setPlain(e.target.checked)} />
          {t("instructions.plain")}
        </label>
      </header>
      {hidden && (
        <p className="muted small" data-testid="instructions-hidden">
          {t("instructions.hidden")}
        </p>
      )}
      {plain ? (
        <pre className="code-block prose instructions-text">
          <ServerText text={text} />
        </pre>
      ) : (
        <div className="markdown-body code-block prose instructions-markdown">
          <ServerMarkdown text={text} />
        </div>
      )}
    </div>
  );
}
