// The tasks of each server the app follows (tools run as tasks), by task id, as the Rust side
// reports them (`task` events and `task_list`); and starting one from the Tools tab.
import type { ServerIdentity } from "../bindings/ServerIdentity";
import type { TaskEntry } from "../bindings/TaskEntry";
import type { TaskStart } from "../bindings/TaskStart";
import type { TaskStatus } from "../bindings/TaskStatus";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import i18n from "../i18n";
import { errorMessage, tasksIpc, type JsonObject } from "../ipc";
import { isObject } from "../json";
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

/** Whether a tool call's result is a task handle (the 2026-07-28 tasks extension). */
export function isTaskHandle(result: JsonValue | null): boolean {
  return isObject(result) && result.resultType === "task";
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

/** A normal call that came back as a task: follow it like one. */
export async function followHandle(serverId: string, tool: string, handle: JsonValue): Promise<void> {
  try {
    noteTask(serverId, await tasksIpc.followTask(serverId, tool, handle));
  } catch (error) {
    setError(serverId, error);
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

/** The 2026-07-28 extension's identifier in `capabilities.extensions`. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/**
 * Whether "Run as task" is offered for a tool: legacy, when the server declares task-augmented
 * `tools/call` and the tool's `execution.taskSupport` is optional or required; modern, when the
 * server declares the tasks extension (it still decides per call). Null: not offered.
 */
export function taskSupport(identity: ServerIdentity | null, tool: JsonValue): "required" | "optional" | null {
  if (identity === null || !isObject(identity.capabilities as JsonValue)) return null;
  const caps = identity.capabilities as JsonObject;
  if (identity.era === "modern") {
    return isObject(caps.extensions) && TASKS_EXTENSION in caps.extensions ? "optional" : null;
  }
  const requests = isObject(caps.tasks) && isObject(caps.tasks.requests) ? caps.tasks.requests : null;
  const offered = requests !== null && isObject(requests.tools) && "call" in requests.tools;
  const execution = isObject(tool) && isObject(tool.execution) ? tool.execution : null;
  const support = execution?.taskSupport;
  if (!offered) return null;
  return support === "required" || support === "optional" ? support : null;
}
