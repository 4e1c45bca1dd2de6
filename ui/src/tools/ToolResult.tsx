import { BookOpen, CircleStop, FileText, Loader2 } from "lucide-react";
import { useEffect, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { ServerMarkdown } from "../common/ServerMarkdown";
import type { ContentBlock } from "../bindings/ContentBlock";
import type { ReadResultView } from "../bindings/ReadResultView";
import type { ToolResultView } from "../bindings/ToolResultView";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { ResultFindings } from "../check/ResultFindings";
import { BlockView } from "../content/BlockView";
import { problemText } from "../content/blocks";
import { ContentsItemView } from "../content/ContentsItemView";
import { ErrorBox } from "../common/ErrorBox";
import { JsonBlock } from "../common/JsonBlock";
import { formatLatency } from "../format";
import i18n from "../i18n";
import { errorMessage } from "../ipc";
import { isObject } from "../json";
import { defaultValidate, useVerdict, VerdictView, type Validate } from "./validation";
import type { RequestState, RunningCall } from "../state/calls";

interface Props {
  call: RequestState<ToolResultView>;
  /** The Tools tab's record of the call: progress, start time, cancelled. */
  running?: RunningCall;
  /** The tool's outputSchema, to check structuredContent against. */
  outputSchema?: JsonValue;
  onCancel?: () => void;
  /** Reads a resource (for resource_link blocks' Read button). */
  onRead?: (uri: string) => Promise<ReadResultView>;
  validate?: Validate | null;
}

/** Seconds with one decimal: "0.4 s", "12.0 s". */
export function formatElapsed(ms: number): string {
  return i18n.t("tools:running.seconds", { seconds: (Math.max(0, ms) / 1000).toFixed(1) });
}

/** The outcome of the last call: content blocks, structured content, or the error. */
export function ToolResult({ call, running, outputSchema, onCancel, onRead, validate }: Props) {
  const { t } = useTranslation("tools");
  const [raw, setRaw] = useState(false);
  const [markdown, setMarkdown] = useState(false);
  const parsed = call.status === "done" ? call.result : null;
  const validator = validate === undefined ? defaultValidate() : validate;
  // The engine says `null` when the server sent no structuredContent.
  const structured = parsed?.structured_content ?? undefined;
  const hasOutputSchema = isObject(outputSchema);
  const verdict = useVerdict(validator, hasOutputSchema ? outputSchema : undefined, structured);
  if (call.status === "running") {
    return <RunningView running={running} onCancel={onCancel} />;
  }
  const cancelled = call.status === "error" && running?.cancelled === true;
  const isError = call.status === "error" || parsed?.is_error === true;
  const outcome = cancelled ? "cancelled" : call.status === "error" ? "protocol-error" : isError ? "tool-error" : "ok";
  const took = call.durationMs === null ? "" : ` · ${formatLatency(call.durationMs * 1000)}`;
  const hasText = parsed?.content.some((b) => b.type === "text") ?? false;
  const title =
    outcome === "cancelled"
      ? t("result.cancelled")
      : outcome === "protocol-error"
        ? call.rpcError
          ? t("result.rpcError", { code: call.rpcError.code })
          : t("result.noResult")
        : outcome === "tool-error"
          ? t("result.toolError")
          : t("result.result");
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
              <label className="checkbox-label" title={t("result.markdownHint")}>
                <input
                  type="checkbox"
                  data-testid="markdown-toggle"
                  checked={markdown}
                  onChange={(e) => setMarkdown(e.target.checked)}
                />
                {t("result.markdown")}
              </label>
            )}
            <label className="checkbox-label">
              <input type="checkbox" checked={raw} onChange={(e) => setRaw(e.target.checked)} />
              {t("result.rawJson")}
            </label>
          </span>
        )}
      </header>
      {cancelled && (
        <p className="result-cancelled" data-testid="result-cancelled">
          {call.durationMs === null ? (
            <Trans t={t} i18nKey="result.cancelledText" components={{ code: <code /> }} />
          ) : (
            <Trans
              t={t}
              i18nKey="result.cancelledTextRan"
              values={{ elapsed: formatElapsed(call.durationMs) }}
              components={{ code: <code /> }}
            />
          )}
        </p>
      )}
      {call.status === "error" && !cancelled && (
        <>
          <p className="muted small">{t("result.protocolFailure")}</p>
          <ErrorBox message={call.error ?? t("result.unknownError")} />
        </>
      )}
      {call.status === "error" && cancelled && <p className="muted small mono">{call.error}</p>}
      {parsed && call.findings && <ResultFindings findings={call.findings} />}
      {parsed && raw && <JsonBlock value={parsed.raw} />}
      {parsed && !raw && (
        <div className="result-blocks">
          {parsed.is_error && (
            <p className="muted small">
              <Trans t={t} i18nKey="result.isErrorNote" components={{ code: <code /> }} />
            </p>
          )}
          {parsed.problems.map((p) => (
            <p key={p.kind} className="inline-error">
              {problemText(p)}
            </p>
          ))}
          {parsed.content.length === 0 && parsed.problems.length === 0 && (
            <p className="muted">{t("result.noBlocks")}</p>
          )}
          {parsed.content.map((block, index) => (
            <ToolBlock key={index} block={block} markdown={markdown} onRead={onRead} />
          ))}
          {structured !== undefined && (
            <div className="structured">
              {/* eslint-disable-next-line i18next/no-literal-string -- the protocol's field name */}
              <div className="block-label">structuredContent</div>
              <JsonBlock value={structured} />
            </div>
          )}
          {hasOutputSchema && structured !== undefined && (
            <VerdictView verdict={verdict} subject="structured" testId="output-verdict" />
          )}
          {hasOutputSchema && structured === undefined && !parsed.is_error && (
            <div className="verdict verdict-invalid" data-testid="output-verdict" data-verdict="missing">
              {t("result.missingStructured")}
            </div>
          )}
          {!hasOutputSchema && structured !== undefined && (
            <p className="muted small" data-testid="output-verdict" data-verdict="no-schema">
              {t("result.noOutputSchema")}
            </p>
          )}
        </div>
      )}
    </section>
  );
}

/**
 * While a call runs: a progress bar (determinate when the server reports a total), the time
 * since it started, the server's progress and message as it reports them, and Cancel.
 */
function RunningView({ running, onCancel }: { running: RunningCall | undefined; onCancel?: () => void }) {
  const { t } = useTranslation(["tools", "common"]);
  const elapsed = useElapsed(running?.startedAt);
  const fraction =
    running && running.progress !== null && running.total !== null && running.total > 0
      ? Math.min(1, Math.max(0, running.progress / running.total))
      : null;
  return (
    <section className="tool-result result-running" data-testid="tool-running">
      <header className="result-header">
        <span className="result-title">
          <Loader2 size={14} className="spin" aria-hidden />
          {running?.cancelled ? t("running.cancelling") : t("running.calling")}
          <span className="muted" data-testid="call-elapsed">
            {formatElapsed(elapsed)}
          </span>
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
            {t("common:cancel")}
          </button>
        )}
      </header>
      <div
        className={`progress${fraction === null ? " progress-indeterminate" : ""}`}
        role="progressbar"
        aria-label={t("running.progressLabel")}
        aria-valuemin={0}
        aria-valuemax={fraction === null ? undefined : 100}
        aria-valuenow={fraction === null ? undefined : Math.round(fraction * 100)}
        data-testid="call-progress"
      >
        <div className="progress-fill" style={fraction === null ? undefined : { width: `${fraction * 100}%` }} />
      </div>
      {running && running.progress !== null && (
        <div className="progress-text small" data-testid="progress-text">
          {progressText(running.progress, running.total, running.message)}
        </div>
      )}
      {running && running.progress === null && (
        <div className="progress-text small muted">{t("running.noProgress")}</div>
      )}
    </section>
  );
}

/** "2 of 5 · step 2": what the server's notifications/progress said, as it said it. */
function progressText(progress: number, total: number | null, message: string | null): string {
  if (total !== null) {
    return message
      ? i18n.t("tools:running.progressOfMessage", { progress, total, message })
      : i18n.t("tools:running.progressOf", { progress, total });
  }
  return message
    ? i18n.t("tools:running.progressMessage", { progress, message })
    : i18n.t("tools:running.progress", { progress });
}

/**
 * Milliseconds since `startedAt` (Date.now() time), ticking every 100 ms; without a start
 * time, since this view appeared (a re-run from the Saved tab, which the view sees from its
 * start).
 */
export function useElapsed(startedAt: number | undefined): number {
  const [shownAt] = useState(() => Date.now());
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 100);
    return () => clearInterval(timer);
  }, []);
  return now - (startedAt ?? shownAt);
}

function ToolBlock({
  block,
  markdown,
  onRead,
}: {
  block: ContentBlock;
  markdown: boolean;
  onRead?: (uri: string) => Promise<ReadResultView>;
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

type ReadState =
  | { status: "idle" }
  | { status: "reading" }
  | { status: "done"; result: ReadResultView }
  | { status: "error"; error: string };

function ResourceLinkBlock({
  block,
  onRead,
}: {
  block: Extract<ContentBlock, { type: "resource_link" }>;
  onRead: (uri: string) => Promise<ReadResultView>;
}) {
  const { t } = useTranslation("tools");
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
          {read.status === "reading" ? t("link.reading") : read.status === "done" ? t("link.readAgain") : t("link.read")}
        </button>
        {read.status === "done" && (
          <button type="button" className="button button-small" onClick={() => setRead({ status: "idle" })}>
            <FileText size={13} aria-hidden />
            {t("link.hide")}
          </button>
        )}
      </div>
      {read.status === "error" && <ErrorBox title={t("link.readError")} message={read.error} />}
      {read.status === "done" && (
        <div className="resource-link-contents" data-testid="resource-link-contents">
          {read.result.contents.map((item, index) => (
            <ContentsItemView key={index} item={item} />
          ))}
        </div>
      )}
    </div>
  );
}
