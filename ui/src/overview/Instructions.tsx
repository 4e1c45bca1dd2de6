import { useState } from "react";
import { ServerMarkdown } from "../common/ServerMarkdown";


/** The server's instructions: Markdown (no raw HTML), or the plain text with its line breaks. */
export function Instructions({ text }: { text: string }) {
  const [plain, setPlain] = useState(false);
  return (
    <div className="instructions" data-testid="server-instructions">
      <header className="instructions-header">
        <h3>Instructions</h3>
        <label className="checkbox-label" title="Show the text exactly as the server sent it">
          <input type="checkbox" checked={plain} onChange={(e) => setPlain(e.target.checked)} />
          Plain text
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
