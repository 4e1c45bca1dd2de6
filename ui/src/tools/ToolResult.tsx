import { BookOpen, CircleStop, FileText, Loader2 } from "lucide-react";
import { useEffect, useState } from "react";
import { ServerMarkdown } from "../common/ServerMarkdown";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { BlockView } from "../content/BlockView";
import { parseReadResult, parseToolResult, type Block } from "../content/blocks";
import { ResourceBodyView } from "../content/ResourceBodyView";
import { ErrorBox } from "../common/ErrorBox";
import { JsonBlock } from "../common/JsonBlock";
import { formatLatency } from "../format";
import { errorMessage } from "../ipc";
import { isObject } from "../json";
import { defaultValidate, useVerdict, VerdictView, type Validate } from "./validation";
import type { RequestState, RunningCall } from "../state/calls";

interface Props {
  call: RequestState;
  /** The Tools tab's record of the call: progress, start time, cancelled. */
  running?: RunningCall;
  /** The tool's outputSchema, to check structuredContent against. */
  outputSchema?: JsonValue;
  onCancel?: () => void;
  /** Reads a resource (for resource_link blocks' Read button). */
  onRead?: (uri: string) => Promise<JsonValue>;
  validate?: Validate | null;
}

/** Seconds with one decimal: "0.4 s", "12.0 s". */
export function formatElapsed(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
}

/** The outcome of the last call: content blocks, structured content, or the error. */
export function ToolResult({ call, running, outputSchema, onCancel, onRead, validate }: Props) {
  const [raw, setRaw] = useState(false);
  const [markdown, setMarkdown] = useState(false);
  const parsed = call.status === "done" && call.result !== null ? parseToolResult(call.result) : null;
  const validator = validate === undefined ? defaultValidate() : validate;
  const structured = parsed?.structured;
  const hasOutputSchema = isObject(outputSchema);
  const verdict = useVerdict(validator, hasOutputSchema ? outputSchema : undefined, structured);
  if (call.status === "running") {
    return <RunningView running={running} onCancel={onCancel} />;
  }
  const cancelled = call.status === "error" && running?.cancelled === true;
  const isError = call.status === "error" || parsed?.isError === true;
  const outcome = cancelled ? "cancelled" : call.status === "error" ? "protocol-error" : isError ? "tool-error" : "ok";
  const took = call.durationMs === null ? "" : ` · ${formatLatency(call.durationMs * 1000)}`;
  const hasText = parsed?.blocks.some((b) => b.type === "text") ?? false;
  const title =
    outcome === "cancelled"
      ? "Cancelled"
      : outcome === "protocol-error"
        ? call.rpcError
          ? `The call failed: JSON-RPC error ${call.rpcError.code}`
          : "The call failed (no result)"
        : outcome === "tool-error"
          ? "The tool reported an error (isError: true)"
          : "Result";
  return (
    <section
      className={`tool-result${isError && !cancelled ? " is-error" : ""}${cancelled ? " is-cancelled" : ""}`}
      data-testid="tool-result"
      data-is-error={String(isError)}
      data-outcome={outcome}
    >
      <header className="result-header">
        <span className="result-title">
          {title}
          <span className="muted">{took}</span>
        </span>
        {call.status === "done" && (
          <span className="result-toggles">
            {hasText && !raw && (
              <label className="checkbox-label" title="Render text blocks as Markdown (no HTML)">
                <input
                  type="checkbox"
                  data-testid="markdown-toggle"
                  checked={markdown}
                  onChange={(e) => setMarkdown(e.target.checked)}
                />
                Markdown
              </label>
            )}
            <label className="checkbox-label">
              <input type="checkbox" checked={raw} onChange={(e) => setRaw(e.target.checked)} />
              Raw JSON
            </label>
          </span>
        )}
      </header>
      {cancelled && (
        <p className="result-cancelled" data-testid="result-cancelled">
          You cancelled this call; Periscope sent <code>notifications/cancelled</code> to the server.
          {call.durationMs !== null && ` It ran for ${formatElapsed(call.durationMs)}.`}
        </p>
      )}
      {call.status === "error" && !cancelled && (
        <>
          <p className="muted small">
            A protocol-level failure: the server answered with a JSON-RPC error, or no answer came. This is not a
            tool result.
          </p>
          <ErrorBox message={call.error ?? "unknown error"} />
        </>
      )}
      {call.status === "error" && cancelled && <p className="muted small mono">{call.error}</p>}
      {call.status === "done" && raw && <JsonBlock value={call.result} />}
      {parsed && !raw && (
        <div className="result-blocks">
          {parsed.isError && (
            <p className="muted small">
              The tool ran and reports a failure in its result (<code>isError: true</code>); the protocol exchange
              itself succeeded.
            </p>
          )}
          {parsed.problems.map((p) => (
            <p key={p} className="inline-error">
              {p}
            </p>
          ))}
          {parsed.blocks.length === 0 && parsed.problems.length === 0 && (
            <p className="muted">The result has no content blocks.</p>
          )}
          {parsed.blocks.map((block, index) => (
            <ToolBlock key={index} block={block} markdown={markdown} onRead={onRead} />
          ))}
          {structured !== undefined && (
            <div className="structured">
              <div className="block-label">structuredContent</div>
              <JsonBlock value={structured} />
            </div>
          )}
          {hasOutputSchema && structured !== undefined && (
            <VerdictView
              verdict={verdict}
              subject="structuredContent"
              against="the tool's outputSchema"
              testId="output-verdict"
            />
          )}
          {hasOutputSchema && structured === undefined && !parsed.isError && (
            <div className="verdict verdict-invalid" data-testid="output-verdict" data-verdict="missing">
              The tool declares an outputSchema but the result has no structuredContent.
            </div>
          )}
          {!hasOutputSchema && structured !== undefined && (
            <p className="muted small" data-testid="output-verdict" data-verdict="no-schema">
              The tool declares no outputSchema, so structuredContent is not checked.
            </p>
          )}
        </div>
      )}
    </section>
  );
}

/** While a call runs: a progress bar (determinate when the total is known), time, Cancel. */
function RunningView({ running, onCancel }: { running: RunningCall | undefined; onCancel?: () => void }) {
  const now = useNow(running ? 100 : null);
  const elapsed = running ? now - running.startedAt : null;
  const fraction =
    running && running.progress !== null && running.total !== null && running.total > 0
      ? Math.min(1, Math.max(0, running.progress / running.total))
      : null;
  return (
    <section className="tool-result result-running" data-testid="tool-running">
      <header className="result-header">
        <span className="result-title">
          <Loader2 size={14} className="spin" aria-hidden />
          {running?.cancelled ? "Cancelling…" : "Calling…"}
          {elapsed !== null && (
            <span className="muted" data-testid="call-elapsed">
              {formatElapsed(elapsed)}
            </span>
          )}
        </span>
        {running && onCancel && (
          <button
            type="button"
            className="button button-small"
            data-testid="cancel-call"
            disabled={running.cancelled}
            onClick={onCancel}
          >
            <CircleStop size={13} aria-hidden />
            Cancel
          </button>
        )}
      </header>
      <div
        className={`progress${fraction === null ? " progress-indeterminate" : ""}`}
        role="progressbar"
        aria-label="Call progress"
        aria-valuemin={0}
        aria-valuemax={fraction === null ? undefined : 100}
        aria-valuenow={fraction === null ? undefined : Math.round(fraction * 100)}
        data-testid="call-progress"
      >
        <div className="progress-fill" style={fraction === null ? undefined : { width: `${fraction * 100}%` }} />
      </div>
      {running && running.progress !== null && (
        <div className="progress-text small" data-testid="progress-text">
          {running.total !== null ? `${running.progress} of ${running.total}` : `${running.progress}`}
          {running.message ? ` · ${running.message}` : ""}
        </div>
      )}
      {running && running.progress === null && (
        <div className="progress-text small muted">No progress reported yet.</div>
      )}
    </section>
  );
}

function useNow(intervalMs: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (intervalMs === null) return;
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}


function ToolBlock({
  block,
  markdown,
  onRead,
}: {
  block: Block;
  markdown: boolean;
  onRead?: (uri: string) => Promise<JsonValue>;
}) {
  if (block.type === "text" && markdown) {
    return (
      <div className="markdown-body block-text" data-testid="result-markdown">
        <ServerMarkdown text={block.text} />
      </div>
    );
  }
  if (block.type === "resource_link" && onRead) {
    return <ResourceLinkBlock block={block} onRead={onRead} />;
  }
  return <BlockView block={block} />;
}

type ReadState = { status: "idle" } | { status: "reading" } | { status: "done"; result: JsonValue } | { status: "error"; error: string };

function ResourceLinkBlock({
  block,
  onRead,
}: {
  block: Extract<Block, { type: "resource_link" }>;
  onRead: (uri: string) => Promise<JsonValue>;
}) {
  const [read, setRead] = useState<ReadState>({ status: "idle" });
  const doRead = async () => {
    setRead({ status: "reading" });
    try {
      setRead({ status: "done", result: await onRead(block.uri) });
    } catch (error) {
      setRead({ status: "error", error: errorMessage(error) });
    }
  };
  return (
    <div className="resource-link-block" data-testid="resource-link">
      <BlockView block={block} />
      <div className="resource-link-actions">
        <button
          type="button"
          className="button button-small"
          data-testid="read-resource-link"
          disabled={read.status === "reading"}
          onClick={() => void doRead()}
        >
          <BookOpen size={13} aria-hidden />
          {read.status === "reading" ? "Reading…" : read.status === "done" ? "Read again" : "Read"}
        </button>
        {read.status === "done" && (
          <button type="button" className="button button-small" onClick={() => setRead({ status: "idle" })}>
            <FileText size={13} aria-hidden />
            Hide
          </button>
        )}
      </div>
      {read.status === "error" && <ErrorBox title="Could not read the resource" message={read.error} />}
      {read.status === "done" && (
        <div className="resource-link-contents" data-testid="resource-link-contents">
          {parseReadResult(read.result).map((body, index) =>
            "problem" in body ? (
              <div key={index} className="block-unknown">
                <div className="inline-error">{body.problem}</div>
                <JsonBlock value={body.raw} />
              </div>
            ) : (
              <ResourceBodyView key={index} body={body} />
            ),
          )}
        </div>
      )}
    </div>
  );
}
