// A server's tasks (tools run as tasks, and calls the server turned into tasks): status,
// progress (the status message), the input a task waits for, the result, and Cancel.
import { CircleStop, RefreshCw } from "lucide-react";
import { useEffect } from "react";
import { Trans, useTranslation } from "react-i18next";
import { connect } from "../actions/connections";
import { setTab } from "../actions/view";
import type { TaskEntry } from "../bindings/TaskEntry";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { EmptyState } from "../common/EmptyState";
import { ErrorBox } from "../common/ErrorBox";
import { JsonBlock } from "../common/JsonBlock";
import { problemText } from "../i18n/problem";
import { ipc } from "../ipc";
import type { ServerState } from "../state/connections";
import { cancelTask, isTerminal, loadTasks, statusText, useServerTasks } from "../state/tasks";
import { ToolResult } from "../tools/ToolResult";
import "../styles/tasks.css";

export function TasksTab({ server }: { server: ServerState }) {
  const { t } = useTranslation(["tasks", "common"]);
  const { byId, error } = useServerTasks(server.id);
  const ready = server.status.state === "ready";
  useEffect(() => {
    if (ready) void loadTasks(server.id);
  }, [server.id, ready]);
  const entries = Object.values(byId).reverse();
  return (
    <div className="tasks-tab scroll-area" data-testid="tasks-tab">
      <header className="tasks-header">
        <h2>{t("title")}</h2>
        <button type="button" className="button" onClick={() => void loadTasks(server.id)} disabled={!ready}>
          <RefreshCw size={14} aria-hidden /> {t("common:refresh")}
        </button>
      </header>
      <p className="muted small">
        <Trans t={t} i18nKey="intro" components={{ b: <b /> }} />
      </p>
      {error && <ErrorBox message={error} />}
      {entries.length === 0 && (
        <EmptyState
          title={t("empty.title")}
          testId="tasks-empty"
          action={
            ready ? (
              <button type="button" className="button" onClick={() => setTab(server.id, "tools")}>
                {t("empty.openTools")}
              </button>
            ) : server.status.state !== "connecting" ? (
              <button type="button" className="button button-primary" onClick={() => void connect(server.id)}>
                {t("common:connect")}
              </button>
            ) : undefined
          }
        >
          <p>
            <Trans t={t} i18nKey="empty.body" components={{ b: <b /> }} />
          </p>
          <p>{ready ? t("empty.how") : t("empty.connect")}</p>
        </EmptyState>
      )}
      <ul className="task-list">
        {entries.map((entry) => (
          <TaskCard key={entry.task.task_id} serverId={server.id} entry={entry} />
        ))}
      </ul>
    </div>
  );
}

function TaskCard({ serverId, entry }: { serverId: string; entry: TaskEntry }) {
  const { t } = useTranslation(["tasks", "common"]);
  const { task } = entry;
  const done = isTerminal(task.status);
  const status = typeof task.status === "string" ? task.status : "unknown";
  return (
    <li className="task-card" data-testid="task-card" data-status={status}>
      <div className="task-line">
        <span className={`badge task-status task-${status}`} data-testid="task-status">
          {statusText(task.status)}
        </span>
        <span className="mono">{entry.tool || t("card.listed")}</span>
        <span className="muted small mono" title={t("card.id")}>
          {task.task_id}
        </span>
        <span className="muted small">{entry.flavour === "extension" ? t("card.extension") : t("card.standard")}</span>
        {!done && (
          <button
            type="button"
            className="button"
            data-testid="task-cancel"
            disabled={entry.cancel_sent}
            onClick={() => void cancelTask(serverId, task.task_id)}
          >
            <CircleStop size={14} aria-hidden /> {entry.cancel_sent ? t("card.cancelling") : t("common:cancel")}
          </button>
        )}
      </div>
      {task.status_message && (
        <p className="task-message" data-testid="task-message">
          {task.status_message}
        </p>
      )}
      {entry.cancel_sent && <p className="muted small">{t("card.cancelSent")}</p>}
      {task.status === "input_required" && <InputNote entry={entry} />}
      {entry.error && <ErrorBox title={t("card.stopped")} message={problemText(entry.error)} />}
      {task.status === "failed" && task.error !== null && (
        <ErrorBox title={t("card.failed")} message={JSON.stringify(task.error)} />
      )}
      {task.result !== null && task.result !== undefined && (
        <ToolResult
          call={{ status: "done", result: task.result, error: null, durationMs: null }}
          onRead={(uri) => ipc.readResource(serverId, uri)}
        />
      )}
    </li>
  );
}

/** What the task waits for; the question itself opens in the answering dialog. */
function InputNote({ entry }: { entry: TaskEntry }) {
  const { t } = useTranslation(["tasks", "common"]);
  return (
    <div className="task-input" data-testid="task-input">
      <p>
        {entry.flavour === "extension" ? t("input.extension") : t("input.standard")}
      </p>
      {entry.task.asks.map((ask) => (
        <details key={ask.key}>
          <summary>
            <span className="mono">{ask.key}</span>: {ask.method ?? "?"}
            {ask.message && <> — {ask.message}</>}
          </summary>
          <JsonBlock value={ask.raw as JsonValue} />
        </details>
      ))}
    </div>
  );
}
