import { Bot, Wrench } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { Trans, useTranslation } from "react-i18next";
import type { ContentBlock } from "../bindings/ContentBlock";
import type { Draft } from "../bindings/Draft";
import type { SamplingView } from "../bindings/SamplingView";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { JsonBlock } from "../common/JsonBlock";
import { BlockView } from "../content/BlockView";
import {
  DEFAULT_MODEL,
  DEFAULT_REJECT_REASON,
  parseToolInput,
  prioritiesOf,
  STOP_REASONS,
  toolUseId,
} from "./sampling";
import { DraftBar } from "./SamplingDraft";
import { offSpecText } from "../i18n/offSpec";
import "../styles/answering.css";

interface Props {
  serverName: string;
  /** The ask's id and server, when a configured model may draft the reply (the app). */
  askId?: number;
  serverId?: string;
  /** The `sampling/createMessage` params as the engine read them (the JSON as sent in `raw`). */
  request: SamplingView;
  onReply: (result: JsonValue) => void;
  onReject: (reason: string) => void;
}

type Mode = "text" | "tool";

/** The request's parameters by their protocol names (not translated). */
const PARAM = {
  maxTokens: "maxTokens",
  temperature: "temperature",
  stopSequences: "stopSequences",
  includeContext: "includeContext",
  toolChoice: "toolChoice",
  metadata: "metadata",
} as const;

/**
 * A block of a sampling message: text, tool use and tool results its own way; media and blocks
 * it cannot show as every other content block (content/BlockView.tsx).
 */
function SamplingBlockView({ block }: { block: ContentBlock }) {
  const { t } = useTranslation("answering");
  switch (block.type) {
    case "text":
      return (
        <pre className="code-block prose sampling-text" data-testid="sampling-text">
          {block.text}
        </pre>
      );
    case "tool_use":
      return (
        <div className="sampling-tool-block" data-testid="sampling-tool-use">
          <div className="sampling-tool-block-title">
            <Wrench size={14} aria-hidden />
            <span className="block-label">{t("sampling.toolUse")}</span>
            <span className="mono">{block.name}</span>
            {block.id && <span className="badge mono">{block.id}</span>}
          </div>
          <JsonBlock value={block.input ?? null} />
        </div>
      );
    case "tool_result":
      return (
        <div className={`sampling-tool-block${block.is_error ? " is-error" : ""}`} data-testid="sampling-tool-result">
          <div className="sampling-tool-block-title">
            <span className="block-label">{block.is_error ? t("sampling.toolResultError") : t("sampling.toolResult")}</span>
            {block.tool_use_id && <span className="badge mono">{block.tool_use_id}</span>}
          </div>
          {block.content.length === 0 && <p className="muted small">{t("sampling.noContent")}</p>}
          {block.content.map((inner, index) => (
            <SamplingBlockView key={index} block={inner} />
          ))}
        </div>
      );
    default:
      // Media, links, embedded resources and what cannot be read: as every content block.
      return <BlockView block={block} />;
  }
}

function Priorities({ request }: { request: SamplingView }) {
  const { t } = useTranslation("answering");
  return (
    <ul className="sampling-priorities">
      {prioritiesOf(request).map((p) => {
        const clamped = Math.min(1, Math.max(0, p.value));
        return (
          <li key={p.name}>
            <span className="sampling-priority-name">{p.name}</span>
            <span
              className="sampling-priority-bar"
              role="meter"
              aria-label={t("sampling.priority", { name: p.name })}
              aria-valuemin={0}
              aria-valuemax={1}
              aria-valuenow={clamped}
            >
              <span style={{ width: `${clamped * 100}%` }} />
            </span>
            <span className="count-text">{p.value}</span>
          </li>
        );
      })}
    </ul>
  );
}

/** What the server asks the model: messages, system prompt, preferences, tools, limits. */
function RequestView({ request }: { request: SamplingView }) {
  const { t } = useTranslation("answering");
  const { hints } = request.model_preferences;
  const hasPriorities = prioritiesOf(request).length > 0;
  const hasPrefs = hints.length > 0 || hasPriorities;
  return (
    <>
      {request.system_prompt !== null && (
        <div className="section">
          <div className="block-label">{t("sampling.systemPrompt")}</div>
          <pre className="code-block prose" data-testid="sampling-system-prompt">
            {request.system_prompt}
          </pre>
        </div>
      )}
      <div className="section">
        <div className="block-label">{t("sampling.messages")}</div>
        {request.messages.length === 0 && <p className="muted">{t("sampling.noMessages")}</p>}
        {request.messages.map((m, index) => (
          <div key={index} className="prompt-message sampling-message" data-testid="sampling-message" data-role={m.role ?? "?"}>
            <span className={`role-badge role-${m.role ?? "?"}`}>{m.role ?? "?"}</span>
            {m.content.length === 0 && <p className="muted small">{t("sampling.noContent")}</p>}
            {m.content.map((block, i) => (
              <SamplingBlockView key={i} block={block} />
            ))}
          </div>
        ))}
      </div>
      {request.tools.length > 0 && (
        <div className="section" data-testid="sampling-tools">
          <div className="sampling-tools-title">
            <span className="block-label">{t("sampling.toolsOffered")}</span>
            {request.tool_choice && <span className="badge">{t("sampling.toolChoiceBadge", { choice: request.tool_choice })}</span>}
          </div>
          <ul className="sampling-tools">
            {request.tools.map((tool) => (
              <li key={tool.name}>
                <span className="mono">{tool.name}</span>
                {tool.description && <span className="muted"> — {tool.description}</span>}
              </li>
            ))}
          </ul>
        </div>
      )}
      <dl className="facts compact sampling-facts">
        <dt>{PARAM.maxTokens}</dt>
        <dd data-testid="sampling-max-tokens">{request.max_tokens ?? t("sampling.notGiven")}</dd>
        {request.temperature !== null && (
          <>
            <dt>{PARAM.temperature}</dt>
            <dd>{request.temperature}</dd>
          </>
        )}
        {request.stop_sequences.length > 0 && (
          <>
            <dt>{PARAM.stopSequences}</dt>
            <dd className="sampling-stops">
              {request.stop_sequences.map((s, i) => (
                <code key={i} className="badge">
                  {JSON.stringify(s)}
                </code>
              ))}
            </dd>
          </>
        )}
        {request.include_context !== null && (
          <>
            <dt>{PARAM.includeContext}</dt>
            <dd>{request.include_context}</dd>
          </>
        )}
        {request.tools.length === 0 && request.tool_choice !== null && (
          <>
            <dt>{PARAM.toolChoice}</dt>
            <dd>{request.tool_choice}</dd>
          </>
        )}
        {hasPrefs && (
          <>
            <dt>{t("sampling.modelPreferences")}</dt>
            <dd data-testid="sampling-preferences">
              {hints.length > 0 && (
                <div className="badges">
                  <span className="muted small">{t("sampling.hints")}</span>
                  {hints.map((h, i) => (
                    <span key={i} className="badge mono">
                      {h}
                    </span>
                  ))}
                </div>
              )}
              {hasPriorities && <Priorities request={request} />}
            </dd>
          </>
        )}
      </dl>
      {request.metadata !== null && (
        <details className="section">
          <summary>{PARAM.metadata}</summary>
          <JsonBlock value={request.metadata} />
        </details>
      )}
    </>
  );
}

/**
 * A server's `sampling/createMessage` request, answered by a human: shows what the server asks
 * the model, and lets the user write the assistant's reply (text, or a use of an offered tool)
 * or reject the request. Key it by request so a new request starts from a fresh reply.
 */
export function SamplingPanel({ serverName, askId, serverId, request, onReply, onReject }: Props) {
  const { t } = useTranslation("answering");
  const canUseTools = request.tools.length > 0;
  const ids = useId();
  const [mode, setModeState] = useState<Mode>(() => (canUseTools && request.tool_choice === "required" ? "tool" : "text"));
  const [text, setText] = useState("");
  const [toolName, setToolName] = useState(() => request.tools[0]?.name ?? "");
  const [toolInput, setToolInput] = useState("{}");
  const [model, setModel] = useState(DEFAULT_MODEL);
  const [stopReason, setStopReason] = useState<string>(() => (mode === "tool" ? "toolUse" : "endTurn"));
  const [rejectReason, setRejectReason] = useState("");
  const [error, setError] = useState<{ field: "text" | "tool" | "model"; message: string } | null>(null);

  const setMode = (next: Mode) => {
    setModeState(next);
    setStopReason(next === "tool" ? "toolUse" : "endTurn");
    setError(null);
  };

  const approve = (event: FormEvent) => {
    event.preventDefault();
    if (model.trim() === "") {
      setError({ field: "model", message: t("sampling.errorModel") });
      return;
    }
    if (mode === "text") {
      if (text.trim() === "") {
        setError({ field: "text", message: t("sampling.errorText") });
        return;
      }
      setError(null);
      onReply({ role: "assistant", content: { type: "text", text }, model: model.trim(), stopReason });
      return;
    }
    const parsed = parseToolInput(toolInput);
    if ("error" in parsed) {
      setError({ field: "tool", message: parsed.error });
      return;
    }
    if (!request.tools.some((t) => t.name === toolName)) {
      setError({ field: "tool", message: t("sampling.errorTool") });
      return;
    }
    setError(null);
    onReply({
      role: "assistant",
      content: { type: "tool_use", id: toolUseId(), name: toolName, input: parsed.input },
      model: model.trim(),
      stopReason,
    });
  };

  const applyDraft = ({ model: drafted, reply }: Draft) => {
    if (drafted) setModel(drafted);
    if (reply.tool) {
      setModeState("tool");
      setToolName(reply.tool.name);
      setToolInput(JSON.stringify(reply.tool.input, null, 2));
    } else {
      setModeState("text");
      setText(reply.text);
    }
    setStopReason(reply.stop_reason);
  };

  const errorLine = (field: "text" | "tool" | "model") =>
    error?.field === field && (
      <span className="inline-error" role="alert" data-testid="sampling-error">
        {error.message}
      </span>
    );
  const textError = errorLine("text");
  const toolError = errorLine("tool");
  const modelError = errorLine("model");

  return (
    <section className="host-card sampling-panel" data-testid="sampling-panel" aria-labelledby={`${ids}-title`}>
      <header className="host-card-header">
        <Bot size={16} aria-hidden className="host-card-icon" />
        <h2 id={`${ids}-title`}>
          <Trans
            t={t}
            i18nKey="sampling.title"
            values={{ server: serverName }}
            components={{ server: <span className="host-server" /> }}
          />
        </h2>
      </header>
      {request.problems.length > 0 && (
        <div className="warning-box" data-testid="sampling-problems">
          <div className="warning-box-title">{t("sampling.problems")}</div>
          <ul>
            {request.problems.map((p, i) => (
              <li key={i}>{offSpecText(p)}</li>
            ))}
          </ul>
        </div>
      )}
      <RequestView request={request} />
      <details className="section" open={request.problems.length > 0 ? true : undefined}>
        <summary>{t("sampling.raw")}</summary>
        <JsonBlock value={request.raw} testId="sampling-raw" />
      </details>

      {askId !== undefined && serverId !== undefined && (
        <DraftBar
          askId={askId}
          serverId={serverId}
          onText={(piece) => {
            setModeState("text");
            setText((old) => old + piece);
          }}
          onStart={() => setText("")}
          onDone={applyDraft}
        />
      )}
      <form className="sampling-reply" onSubmit={approve} noValidate>
        <div className="sampling-reply-header">
          <h3>{t("sampling.replyTitle")}</h3>
          <div className="segmented" role="group" aria-label={t("sampling.replyKind")}>
            <button
              type="button"
              className={mode === "text" ? "active" : ""}
              aria-pressed={mode === "text"}
              data-testid="sampling-mode-text"
              onClick={() => setMode("text")}
            >
              {t("sampling.modeText")}
            </button>
            <button
              type="button"
              className={mode === "tool" ? "active" : ""}
              aria-pressed={mode === "tool"}
              data-testid="sampling-mode-tool"
              disabled={!canUseTools}
              title={canUseTools ? undefined : t("sampling.noTools")}
              onClick={() => setMode("tool")}
            >
              {t("sampling.toolUse")}
            </button>
          </div>
        </div>
        {mode === "text" ? (
          <div className="field sampling-wide">
            <label className="field-label" htmlFor={`${ids}-text`}>
              {t("sampling.replyText")}
            </label>
            <textarea
              id={`${ids}-text`}
              data-testid="sampling-reply-text"
              rows={6}
              value={text}
              aria-invalid={error?.field === "text" || undefined}
              onChange={(e) => setText(e.target.value)}
            />
            {textError}
          </div>
        ) : (
          <>
            {request.tool_choice === "none" && (
              <p className="form-note">{t("sampling.toolChoiceNone")}</p>
            )}
            <div className="field">
              <label className="field-label" htmlFor={`${ids}-tool`}>
                {t("sampling.tool")}
              </label>
              <select
                id={`${ids}-tool`}
                data-testid="sampling-tool-name"
                value={toolName}
                onChange={(e) => setToolName(e.target.value)}
              >
                {request.tools.map((tool) => (
                  <option key={tool.name} value={tool.name}>
                    {tool.name}
                  </option>
                ))}
              </select>
            </div>
            <div className="field sampling-wide">
              <label className="field-label" htmlFor={`${ids}-input`}>
                {t("sampling.input")}
              </label>
              <textarea
                id={`${ids}-input`}
                className="mono"
                data-testid="sampling-tool-input"
                rows={6}
                spellCheck={false}
                value={toolInput}
                aria-invalid={error?.field === "tool" || undefined}
                onChange={(e) => setToolInput(e.target.value)}
              />
              {toolError}
            </div>
          </>
        )}
        <div className="sampling-reply-meta">
          <div className="field">
            <label className="field-label" htmlFor={`${ids}-model`}>
              {t("sampling.model")}
            </label>
            <input
              id={`${ids}-model`}
              data-testid="sampling-model"
              value={model}
              aria-invalid={error?.field === "model" || undefined}
              onChange={(e) => setModel(e.target.value)}
              spellCheck={false}
            />
            {modelError}
          </div>
          <div className="field">
            <label className="field-label" htmlFor={`${ids}-stop`}>
              {t("sampling.stopReason")}
            </label>
            <select
              id={`${ids}-stop`}
              data-testid="sampling-stop-reason"
              value={stopReason}
              onChange={(e) => setStopReason(e.target.value)}
            >
              {STOP_REASONS.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className="host-actions">
          <button type="submit" className="button button-primary" data-testid="sampling-approve">
            {t("sampling.approve")}
          </button>
        </div>
      </form>

      <div className="sampling-reject">
        <input
          aria-label={t("sampling.rejectReason")}
          placeholder={t("sampling.rejectReason")}
          data-testid="sampling-reject-reason"
          value={rejectReason}
          onChange={(e) => setRejectReason(e.target.value)}
        />
        <button
          type="button"
          className="button"
          data-testid="sampling-reject"
          onClick={() => onReject(rejectReason.trim() || DEFAULT_REJECT_REASON)}
        >
          {t("sampling.reject")}
        </button>
      </div>
    </section>
  );
}
