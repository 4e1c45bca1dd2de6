// Tasks: a tool run as a task, the tasks of a server, Cancel (see
// docs/eras.md, "Tasks").
import { invoke } from "@tauri-apps/api/core";
import type { TaskEntry } from "../bindings/TaskEntry";
import type { TaskStart } from "../bindings/TaskStart";
import type { JsonObject } from "./types";

export const tasksIpc = {
  /** `tools/call` as a task; the task is followed in the background (`task` events). */
  callToolAsTask: (serverId: string, name: string, args: JsonObject) =>
    invoke<TaskStart>("call_tool_as_task", { serverId, name, arguments: args }),
  taskList: (serverId: string) => invoke<TaskEntry[]>("task_list", { serverId }),
  cancelTask: (serverId: string, taskId: string) => invoke<null>("cancel_task", { serverId, taskId }),
};
