import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { TaskEntry } from "../bindings/TaskEntry";
import { newServerState, type ServerState } from "../state/connections";
import { dispatchEvents } from "../state/dispatcher";
import { setFrameSchedule } from "../state/notifier";
import { tasks } from "../state/tasks";
import { TasksTab } from "./TasksTab";
import { toolResult } from "../testing/results";

const invoke = vi.hoisted(() => vi.fn());
vi.mock("@tauri-apps/api/core", () => ({ invoke, Channel: class {} }));

const entry = (over: Partial<TaskEntry["task"]> = {}, rest: Partial<TaskEntry> = {}): TaskEntry => ({
  tool: "long_job",
  flavour: "extension",
  cancel_sent: false,
  following: true,
  error: null,
  ...rest,
  task: {
    task_id: "t-1",
    status: "working",
    status_message: "step 3 of 10 (30%)",
    poll_interval_ms: 500,
    ttl_ms: 600000,
    created_at: null,
    last_updated_at: null,
    input_requests: null,
    asks: [],
    result: null,
    error: null,
    ...over,
  },
});

function server(): ServerState {
  return { ...newServerState("demo"), status: { state: "ready", protocol_version: "2026-07-28" } };
}

beforeEach(() => {
  setFrameSchedule((f) => f());
  tasks.update(() => ({ servers: {} }));
  invoke.mockReset();
  invoke.mockImplementation((command: string) => Promise.resolve(command === "task_list" ? [] : null));
});
afterEach(cleanup);

describe("the Tasks tab", () => {
  it("shows a task's status and progress from its events, and Cancel sends cancel_task", async () => {
    render(<TasksTab server={server()} />);
    await waitFor(() => expect(invoke).toHaveBeenCalledWith("task_list", { serverId: "demo" }));
    dispatchEvents([{ type: "task", server_id: "demo", entry: entry() }]);
    expect((await screen.findByTestId("task-status")).textContent).toBe("working");
    expect(screen.getByTestId("task-message").textContent).toBe("step 3 of 10 (30%)");
    fireEvent.click(screen.getByTestId("task-cancel"));
    expect(invoke).toHaveBeenCalledWith("cancel_task", { serverId: "demo", taskId: "t-1" });
  });

  it("names the input a task waits for and says where it is answered", async () => {
    const ask = { method: "elicitation/create", params: { message: "Continue?", requestedSchema: {} } };
    tasks.update(() => ({
      servers: { demo: { error: null, byId: { "t-1": entry({ status: "input_required", input_requests: { continue: ask }, asks: [{ key: "continue", method: "elicitation/create", message: "Continue?", raw: ask }] }) } } },
    }));
    render(<TasksTab server={server()} />);
    const note = await screen.findByTestId("task-input");
    expect(note.textContent).toContain("tasks/update");
    expect(note.textContent).toContain("continue: elicitation/create — Continue?");
  });

  it("shows the result of a completed task and no Cancel", async () => {
    const result = toolResult("tool/task_finished");
    tasks.update(() => ({
      servers: { demo: { error: null, byId: { "t-1": entry({ status: "completed", result }, { following: false }) } } },
    }));
    render(<TasksTab server={server()} />);
    expect(await screen.findByText("long_job finished all 3 steps")).toBeTruthy();
    expect(screen.queryByTestId("task-cancel")).toBeNull();
  });
});
