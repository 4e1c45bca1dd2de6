// The tasks of each server the app follows (tools run as tasks, and calls the server made
// tasks), by task id, as the Rust side reports them (`task` events and `task_list`); and
// starting one from the Tools tab. Whether a tool may run as a task, and whether a call became
// one, the engine decides (`task_support`, `call_tool`'s `task`).
import type { TaskEntry } from "../bindings/TaskEntry";
import type { TaskStart } from "../bindings/TaskStart";
import type { TaskStatus } from "../bindings/TaskStatus";
import i18n from "../i18n";
import { errorMessage, tasksIpc, type JsonObject } from "../ipc";
import { Notifier, useNotifier, withEntry } from "./notifier";

export interface ServerTasks {
  /** By task id, in the order they became known. */
  byId: Record<string, TaskEntry>;
  /** The last error of starting, listing or cancelling. */
  error: string | null;
}

export interface TasksState {
  servers: Record<string, ServerTasks>;
}

const fresh = (): ServerTasks => ({ byId: {}, error: null });
const EMPTY = fresh();

export const tasks = new Notifier<TasksState>({ servers: {} });

export const useServerTasks = (id: string): ServerTasks => useNotifier(tasks, (s) => s.servers[id] ?? EMPTY);

/** How many of a server's tasks wait for input. */
export const useWaitingTasks = (id: string): number =>
  useNotifier(tasks, (s) => Object.values(s.servers[id]?.byId ?? {}).filter((e) => e.task.status === "input_required").length);

function change(id: string, f: (s: ServerTasks) => ServerTasks, soon = false): void {
  const apply = (state: TasksState) => ({ ...state, servers: withEntry(state.servers, id, fresh, f) });
  if (soon) tasks.updateSoon(apply);
  else tasks.update(apply);
}

/** A `task` event, or a task the Rust side returned. */
export function noteTask(serverId: string, entry: TaskEntry, soon = false): void {
  change(serverId, (s) => ({ ...s, byId: { ...s.byId, [entry.task.task_id]: entry } }), soon);
}

/** A task's status in words: "working", "input required", … (`unknown (…)` for a status the spec does not name). */
export function statusText(status: TaskStatus): string {
  return typeof status === "string"
    ? i18n.t(`state:taskStatus.${status}`)
    : i18n.t("state:taskStatus.unknown", { status: status.unknown });
}

export function isTerminal(status: TaskStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

const setError = (serverId: string, error: unknown) => change(serverId, (s) => ({ ...s, error: errorMessage(error) }));

/** "Run as task": the task (then followed), or the plain result when the server answered at once. */
export async function runAsTask(serverId: string, tool: string, args: JsonObject): Promise<TaskStart | null> {
  try {
    const start = await tasksIpc.callToolAsTask(serverId, tool, args);
    change(serverId, (s) => ({ ...s, error: null }));
    if (start.kind === "task") noteTask(serverId, start.entry);
    return start;
  } catch (error) {
    setError(serverId, error);
    return null;
  }
}

export async function loadTasks(serverId: string): Promise<void> {
  try {
    for (const entry of await tasksIpc.taskList(serverId)) noteTask(serverId, entry);
    change(serverId, (s) => ({ ...s, error: null }));
  } catch (error) {
    setError(serverId, error);
  }
}

export async function cancelTask(serverId: string, taskId: string): Promise<void> {
  try {
    await tasksIpc.cancelTask(serverId, taskId);
  } catch (error) {
    setError(serverId, error);
  }
}
