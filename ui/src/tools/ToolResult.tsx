import { useState } from "react";
import { BlockView } from "../content/BlockView";
import { parseToolResult } from "../content/blocks";
import { ErrorBox } from "../common/ErrorBox";
import { JsonBlock } from "../common/JsonBlock";
import { formatLatency } from "../format";
import type { RequestState } from "../store";

/** The outcome of the last call: content blocks, structured content, or the error. */
export function ToolResult({ call }: { call: RequestState }) {
  const [raw, setRaw] = useState(false);
  if (call.status === "running") {
    return <div className="result-pending">Calling…</div>;
  }
  const parsed = call.status === "done" && call.result !== null ? parseToolResult(call.result) : null;
  const isError = call.status === "error" || parsed?.isError === true;
  const took = call.durationMs === null ? "" : ` · ${formatLatency(call.durationMs * 1000)}`;
  return (
    <section className={`tool-result${isError ? " is-error" : ""}`} data-testid="tool-result" data-is-error={String(isError)}>
      <header className="result-header">
        <span className="result-title">
          {call.status === "error" ? "The call failed" : isError ? "The tool reported an error" : "Result"}
          <span className="muted">{took}</span>
        </span>
        {call.status === "done" && (
          <label className="checkbox-label">
            <input type="checkbox" checked={raw} onChange={(e) => setRaw(e.target.checked)} />
            Raw JSON
          </label>
        )}
      </header>
      {call.status === "error" && <ErrorBox message={call.error ?? "unknown error"} />}
      {call.status === "done" && raw && <JsonBlock value={call.result} />}
      {parsed && !raw && (
        <div className="result-blocks">
          {parsed.problems.map((p) => (
            <p key={p} className="inline-error">
              {p}
            </p>
          ))}
          {parsed.blocks.length === 0 && parsed.problems.length === 0 && (
            <p className="muted">The result has no content blocks.</p>
          )}
          {parsed.blocks.map((block, index) => (
            <BlockView key={index} block={block} />
          ))}
          {parsed.structured !== undefined && (
            <div className="structured">
              <div className="block-label">structuredContent</div>
              <JsonBlock value={parsed.structured} />
            </div>
          )}
        </div>
      )}
    </section>
  );
}
