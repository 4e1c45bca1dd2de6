import { Bookmark, Copy, FlaskConical, History, Pencil, Play, Trash2 } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ensureList } from "../actions/lists";
import type { HistoryEntry } from "../bindings/HistoryEntry";
import type { SavedCall } from "../bindings/SavedCall";
import { EmptyState } from "../common/EmptyState";
import { ErrorBox } from "../common/ErrorBox";
import { JsonBlock } from "../common/JsonBlock";
import { formatLatency, formatTime } from "../format";
import type { JsonObject } from "../ipc";
import { asObject } from "../json";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import {
  applyEdit,
  argumentsLine,
  argumentsText,
  duplicateCall,
  filterHistory,
  filterSaved,
  kindLabel,
  outcomeLabel,
} from "./logic";
import { RunResult } from "./RunResult";
import "../styles/saved.css";
import type { ServerState } from "../state/connections";
import { clearHistory, closeRun, ensureSaved, putCall, removeCall, type Run, runCall, saveCallDialog, useServerSaved } from "../state/saved";
import { showEvalCase } from "../evals/actions";
import { useServerLists } from "../state/lists";

/** Saved calls and the history of calls made from the app, for one server. */
export function SavedTab({ server }: { server: ServerState }) {
  const { t } = useTranslation(["saved", "common"]);
  const saved = useServerSaved(server.id);
  const [savedQuery, setSavedQuery] = useState("");
  const [historyQuery, setHistoryQuery] = useState("");
  const ready = server.status.state === "ready";
  useEffect(() => ensureSaved(server.id), [server.id]);
  // A call followed from another view is shown whatever the filter says.
  const focus = saved.focus;
  const focusGone = focus !== null && saved.status === "loaded" && !saved.history.some((e) => e.id === focus);
  // Tool results are checked against the tool's outputSchema: the tools list has them.
  useEffect(() => {
    if (ready) ensureList(server.id, "tools");
  }, [server.id, ready]);
  const toolItems = useServerLists(server.id).tools.items;
  const outputSchemas = useMemo(() => {
    const schemas: Record<string, JsonValue> = {};
    for (const tool of toolItems) {
      if (tool.name && tool.output_schema !== null) schemas[tool.name] = tool.output_schema;
    }
    return schemas;
  }, [toolItems]);
  const calls = useMemo(() => filterSaved(saved.calls, savedQuery), [saved.calls, savedQuery]);
  const history = useMemo(() => {
    const kept = new Set(filterHistory(saved.history, historyQuery).map((e) => e.id));
    return saved.history.filter((e) => kept.has(e.id) || e.id === focus);
  }, [saved.history, historyQuery, focus]);
  const run = (key: string, c: { kind: SavedCall["kind"]; target: string; arguments: SavedCall["arguments"] }) =>
    void runCall(server.id, key, c.kind, c.target, asObject(c.arguments));
  const notReady = ready ? undefined : t("tab.notReady");

  return (
    <div className="saved-tab scroll-area" data-testid="saved-tab">
      {saved.error && <ErrorBox message={saved.error} />}
      <section className="section">
        <header className="saved-section-header">
          <h3>
            <Bookmark size={14} aria-hidden /> {t("tab.saved")} <span className="muted">{saved.calls.length}</span>
          </h3>
          <input
            className="saved-filter"
            type="search"
            placeholder={t("tab.filterSaved")}
            aria-label={t("tab.filterSaved")}
            value={savedQuery}
            onChange={(e) => setSavedQuery(e.target.value)}
          />
        </header>
        {saved.status !== "loaded" && <EmptyState>{t("common:loading")}</EmptyState>}
        {saved.status === "loaded" && saved.calls.length === 0 && (
          <EmptyState title={t("tab.noSavedTitle")} testId="saved-empty">
            {t("tab.noSaved")}
          </EmptyState>
        )}
        {saved.calls.length > 0 && calls.length === 0 && (
          <EmptyState>{t("tab.noSavedMatch", { query: savedQuery })}</EmptyState>
        )}
        <ul className="saved-list">
          {calls.map((call) => (
            <SavedRow
              key={call.id}
              call={call}
              taken={saved.calls.map((c) => c.name)}
              run={saved.runs[call.id]}
              outputSchema={outputSchemas[call.target]}
              disabledReason={notReady}
              onRun={() => run(call.id, call)}
              onCloseRun={() => closeRun(server.id, call.id)}
            />
          ))}
        </ul>
      </section>
      <section className="section">
        <header className="saved-section-header">
          <h3>
            <History size={14} aria-hidden /> {t("tab.history")} <span className="muted">{saved.history.length}</span>
          </h3>
          <input
            className="saved-filter"
            type="search"
            placeholder={t("tab.searchHistory")}
            aria-label={t("tab.searchHistoryLabel")}
            data-testid="history-filter"
            value={historyQuery}
            onChange={(e) => setHistoryQuery(e.target.value)}
          />
          {saved.history.length > 0 && (
            <button type="button" className="button button-small" onClick={() => void clearHistory(server.id)}>
              {t("tab.clear")}
            </button>
          )}
        </header>
        {saved.status === "loaded" && saved.history.length === 0 && (
          <EmptyState title={t("tab.noHistoryTitle")} testId="history-empty">
            {t("tab.noHistory")}
          </EmptyState>
        )}
        {saved.history.length > 0 && history.length === 0 && (
          <EmptyState>{t("tab.noHistoryMatch", { query: historyQuery })}</EmptyState>
        )}
        {focusGone && (
          <p className="notice small" data-testid="history-focus-gone">
            {t("tab.focusGone")}
          </p>
        )}
        <ul className="saved-list">
          {history.map((entry) => (
            <HistoryRow
              key={entry.id}
              entry={entry}
              focused={entry.id === focus}
              run={saved.runs[entry.id]}
              outputSchema={outputSchemas[entry.target]}
              disabledReason={notReady}
              onRun={() => run(entry.id, entry)}
              onCloseRun={() => closeRun(server.id, entry.id)}
              onSave={() => saveCallDialog(entry.kind, entry.target, asObject(entry.arguments) as JsonObject, server.id)}
            />
          ))}
        </ul>
      </section>
    </div>
  );
}

interface RowProps {
  run: Run | undefined;
  /** For a tool: its outputSchema, when the tools list is loaded. */
  outputSchema?: JsonValue;
  disabledReason: string | undefined;
  onRun: () => void;
  onCloseRun: () => void;
}

function Target({ kind, target, args }: { kind: SavedCall["kind"]; target: string; args: SavedCall["arguments"] }) {
  return (
    <>
      <span className={`badge saved-kind saved-kind-${kind}`}>{kindLabel(kind)}</span>
      <span className="mono saved-target">{target}</span>
      <span className="mono muted saved-args-line">{argumentsLine(args)}</span>
    </>
  );
}

function SavedRow({ call, taken, run, outputSchema, disabledReason, onRun, onCloseRun }: RowProps & { call: SavedCall; taken: string[] }) {
  const { t } = useTranslation(["saved", "common"]);
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(call.name);
  const [argsText, setArgsText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const startEdit = () => {
    setName(call.name);
    setArgsText(argumentsText(call.arguments));
    setError(null);
    setEditing(true);
  };
  const saveEdit = async () => {
    const edited = applyEdit(call, name, argsText);
    if ("error" in edited) return setError(edited.error);
    const failed = await putCall(edited.call);
    if (failed) setError(failed);
    else setEditing(false);
  };
  const duplicate = () => void putCall(duplicateCall(call, taken, crypto.randomUUID(), Date.now() * 1000));
  return (
    <li className="saved-row" data-testid="saved-row" data-name={call.name}>
      <div className="saved-line">
        <span className="saved-name">{call.name}</span>
        <Target kind={call.kind} target={call.target} args={call.arguments} />
        <span className="saved-actions">
          <button type="button" className="button button-small" data-testid="saved-rerun" onClick={onRun} disabled={!!disabledReason || run?.state.status === "running"} title={disabledReason}>
            <Play size={12} aria-hidden /> {t("row.rerun")}
          </button>
          <button type="button" className="button button-small" data-testid="saved-edit" onClick={startEdit}>
            <Pencil size={12} aria-hidden /> {t("common:edit")}
          </button>
          <button type="button" className="button button-small" data-testid="saved-duplicate" onClick={duplicate}>
            <Copy size={12} aria-hidden /> {t("row.duplicate")}
          </button>
          <button type="button" className="button button-small" data-testid="saved-delete" onClick={() => void removeCall(call)}>
            <Trash2 size={12} aria-hidden /> {t("row.delete")}
          </button>
        </span>
      </div>
      {editing && (
        <form
          className="saved-edit"
          data-testid="saved-edit-form"
          onSubmit={(e) => {
            e.preventDefault();
            void saveEdit();
          }}
        >
          <label className="field">
            <span className="field-label">{t("common:name")}</span>
            <input data-testid="saved-edit-name" value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <label className="field">
            <span className="field-label">{t("row.arguments")}</span>
            <textarea
              className="mono json-editor"
              data-testid="saved-edit-args"
              value={argsText}
              rows={Math.min(16, Math.max(3, argsText.split("\n").length + 1))}
              onChange={(e) => setArgsText(e.target.value)}
              spellCheck={false}
            />
          </label>
          {error && <ErrorBox message={error} />}
          <div className="form-actions">
            <button type="button" className="button" onClick={() => setEditing(false)}>
              {t("common:cancel")}
            </button>
            <button type="submit" className="button button-primary" data-testid="saved-edit-save">
              {t("common:save")}
            </button>
          </div>
        </form>
      )}
      {run && <RunResult run={run} outputSchema={outputSchema} onClose={onCloseRun} />}
    </li>
  );
}

function HistoryRow({
  entry,
  focused,
  run,
  outputSchema,
  disabledReason,
  onRun,
  onCloseRun,
  onSave,
}: RowProps & { entry: HistoryEntry; focused: boolean; onSave: () => void }) {
  const { t } = useTranslation(["saved", "common", "mcpApps"]);
  const row = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (focused) row.current?.scrollIntoView?.({ block: "center" });
  }, [focused]);
  const preview = entry.result_preview;
  const isProtocolError = entry.outcome === "protocol_error";
  const summary = entry.truncated
    ? t(isProtocolError ? "row.errorTruncated" : "row.resultTruncated")
    : isProtocolError
      ? t("common:error")
      : t("row.result");
  return (
    <li
      ref={row}
      className={focused ? "saved-row saved-row-focused" : "saved-row"}
      data-testid="history-row"
      data-id={entry.id}
      data-focused={focused}
      aria-current={focused ? "true" : undefined}
      title={focused ? t("row.focused") : undefined}
      data-target={entry.target}
      data-outcome={entry.outcome}
      data-origin={entry.origin.by}
    >
      <div className="saved-line">
        <span className="mono muted saved-time">{formatTime(entry.started_wall_us)}</span>
        <Target kind={entry.kind} target={entry.target} args={entry.arguments} />
        <span className={`badge saved-outcome saved-outcome-${entry.outcome}`}>{outcomeLabel(entry.outcome)}</span>
        {entry.origin.by === "model" && (
          <span className="badge" data-testid="history-by-model" title={entry.origin.conversation}>
            {t("row.byModel", { model: entry.origin.model })}
          </span>
        )}
        {entry.origin.by === "eval" && <EvalBadge serverId={entry.server_id} origin={entry.origin} />}
        {entry.origin.by === "app" && (
          <span className="badge" data-testid="history-by-app">
            {t("mcpApps:history.byApp", { title: entry.origin.view_title })}
          </span>
        )}
        <span className="muted saved-duration">{formatLatency(entry.duration_us)}</span>
        <span className="saved-actions">
          <button type="button" className="button button-small" data-testid="history-rerun" onClick={onRun} disabled={!!disabledReason || run?.state.status === "running"} title={disabledReason}>
            <Play size={12} aria-hidden /> {t("row.rerun")}
          </button>
          <button type="button" className="button button-small" data-testid="history-save" onClick={onSave}>
            <Bookmark size={12} aria-hidden /> {t("common:save")}
          </button>
        </span>
      </div>
      <details className="saved-preview">
        <summary>{summary}</summary>
        {entry.truncated && typeof preview === "string" ? (
          <pre className="code-block" data-testid="history-truncated">
            {preview}
            {"\n"}
            {t("row.truncated")}
          </pre>
        ) : (
          <JsonBlock value={preview} />
        )}
      </details>
      {run && <RunResult run={run} outputSchema={outputSchema} onClose={onCloseRun} />}
    </li>
  );
}

/** Whose a call of an eval run was; opens the case's trace in Evals. */
function EvalBadge({ serverId, origin }: { serverId: string; origin: Extract<HistoryEntry["origin"], { by: "eval" }> }) {
  const { t } = useTranslation("saved");
  return (
    <button
      type="button"
      className="badge badge-button"
      data-testid="history-by-eval"
      title={t("row.byEvalTitle", { run: origin.run, variant: origin.variant })}
      onClick={() => void showEvalCase(serverId, origin.run, { case: origin.case, model: origin.model, variant: origin.variant, repetition: null })}
    >
      <FlaskConical size={11} aria-hidden /> {t("row.byEval", { case: origin.case, model: origin.model })}
    </button>
  );
}
