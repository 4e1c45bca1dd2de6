import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ServerMarkdown } from "../common/ServerMarkdown";

/** The server's instructions: Markdown (no raw HTML), or the plain text with its line breaks. */
export function Instructions({ text }: { text: string }) {
  const { t } = useTranslation("overview");
  const [plain, setPlain] = useState(false);
  return (
    <div className="instructions" data-testid="server-instructions">
      <header className="instructions-header">
        <h3>{t("instructions.title")}</h3>
        <label className="checkbox-label" title={t("instructions.plainTitle")}>
          <input type="checkbox" checked={plain} onChange={(e) => setPlain(e.target.checked)} />
          {t("instructions.plain")}
        </label>
      </header>
      {plain ? (
        <pre className="code-block prose instructions-text">{text}</pre>
      ) : (
        <div className="markdown-body code-block prose instructions-markdown">
          <ServerMarkdown text={text} />
        </div>
      )}
    </div>
  );
}
