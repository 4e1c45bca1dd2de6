import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { HistoryEntry } from "../bindings/HistoryEntry";
import type { SavedCall } from "../bindings/SavedCall";
import { SaveCallDialog } from "./SaveCallDialog";
import { SavedTab } from "./SavedTab";
import { newServerState, type ServerState } from "../state/connections";
import { saved } from "../state/saved";

const invoke = vi.hoisted(() => vi.fn());
vi.mock("@tauri-apps/api/core", () => ({ invoke, Channel: class {} }));

const call: SavedCall = {
  id: "s1",
  server_id: "demo",
  name: "two plus three",
  kind: "tool",
  target: "add",
  arguments: { a: 2, b: 3 },
  created_wall_us: 5,
};

const entry = (id: string, target: string, args: HistoryEntry["arguments"], result: HistoryEntry["result_preview"]): HistoryEntry => ({
  id,
  server_id: "demo",
  kind: "tool",
  target,
  arguments: args,
  started_wall_us: 1_700_000_000_000_000,
  duration_us: 1200,
  outcome: "ok",
  result_preview: result,
  truncated: false,
  origin: { by: "user" },
});

function server(): ServerState {
  return { ...newServerState("demo"), status: { state: "ready", protocol_version: "2025-11-25" } };
}

beforeEach(() => {
  invoke.mockReset();
  saved.update(() => ({
    dialog: null,
    servers: {
      demo: {
        status: "loaded",
        calls: [call],
        history: [
          entry("h1", "add", { a: 40, b: 2 }, { structuredContent: { sum: 42 } }),
          entry("h2", "echo", { message: "hi" }, { content: [{ type: "text", text: "echo: hi" }] }),
        ],
        error: null,
        runs: {},
        focus: null,
      },
    },
  }));
});
afterEach(cleanup);

describe("SavedTab", () => {
  it("filters the history by what the call said", () => {
    render(<SavedTab server={server()} />);
    expect(screen.getAllByTestId("history-row")).toHaveLength(2);
    fireEvent.change(screen.getByTestId("history-filter"), { target: { value: "SUM" } });
    const rows = screen.getAllByTestId("history-row");
    expect(rows).toHaveLength(1);
    expect(rows[0]?.dataset.target).toBe("add");
    fireEvent.change(screen.getByTestId("history-filter"), { target: { value: "nothing like it" } });
    expect(screen.queryAllByTestId("history-row")).toHaveLength(0);
    expect(screen.getByText(/No call matches/)).toBeTruthy();
  });

  it("refuses an edit whose arguments are not a JSON object, and saves a good one", async () => {
    render(<SavedTab server={server()} />);
    fireEvent.click(screen.getByTestId("saved-edit"));
    const args = screen.getByTestId("saved-edit-args") as HTMLTextAreaElement;
    expect(JSON.parse(args.value)).toEqual({ a: 2, b: 3 });
    fireEvent.change(args, { target: { value: "[1, 2]" } });
    fireEvent.click(screen.getByTestId("saved-edit-save"));
    expect(await screen.findByText(/must be a JSON object/)).toBeTruthy();
    expect(invoke).not.toHaveBeenCalled();

    const edited = { ...call, name: "forty two", arguments: { a: 40, b: 2 } };
    invoke.mockResolvedValueOnce([edited]);
    fireEvent.change(screen.getByTestId("saved-edit-name"), { target: { value: "forty two" } });
    fireEvent.change(args, { target: { value: '{"a": 40, "b": 2}' } });
    fireEvent.click(screen.getByTestId("saved-edit-save"));
    await waitFor(() => expect(screen.queryByTestId("saved-edit-form")).toBeNull());
    expect(invoke).toHaveBeenCalledWith("saved_put", { call: edited });
    expect(screen.getByTestId("saved-row").dataset.name).toBe("forty two");
  });

  it("duplicates under a new name and deletes", async () => {
    render(<SavedTab server={server()} />);
    invoke.mockImplementationOnce((_cmd: string, body: { call: SavedCall }) => Promise.resolve([call, body.call]));
    fireEvent.click(screen.getByTestId("saved-duplicate"));
    await waitFor(() => expect(screen.getAllByTestId("saved-row")).toHaveLength(2));
    const [cmd, body] = invoke.mock.calls[0] as [string, { call: SavedCall }];
    expect(cmd).toBe("saved_put");
    expect(body.call).toMatchObject({ name: "two plus three (copy)", target: "add", arguments: { a: 2, b: 3 } });
    expect(body.call.id).not.toBe("s1");

    invoke.mockResolvedValueOnce([call]);
    fireEvent.click(within(screen.getAllByTestId("saved-row")[1]!).getByTestId("saved-delete"));
    await waitFor(() => expect(screen.getAllByTestId("saved-row")).toHaveLength(1));
    expect(invoke).toHaveBeenLastCalledWith("saved_remove", { id: body.call.id });
  });

  it("saves a history entry under the name given in the dialog", async () => {
    render(
      <>
        <SavedTab server={server()} />
        <SaveCallDialog />
      </>,
    );
    const addRow = screen.getAllByTestId("history-row")[0]!;
    fireEvent.click(within(addRow).getByTestId("history-save"));
    const name = screen.getByTestId("save-call-name") as HTMLInputElement;
    expect(name.value).toBe("add");
    fireEvent.change(name, { target: { value: "" } });
    fireEvent.click(screen.getByTestId("save-call-confirm"));
    expect(await screen.findByText("Give the saved call a name.")).toBeTruthy();

    invoke.mockImplementationOnce((_cmd: string, body: { call: SavedCall }) => Promise.resolve([call, body.call]));
    fireEvent.change(name, { target: { value: "forty two" } });
    fireEvent.click(screen.getByTestId("save-call-confirm"));
    await waitFor(() => expect(screen.queryByTestId("save-call-dialog")).toBeNull());
    const [, body] = invoke.mock.calls[0] as [string, { call: SavedCall }];
    expect(body.call).toMatchObject({ server_id: "demo", name: "forty two", kind: "tool", target: "add", arguments: { a: 40, b: 2 } });
    expect(screen.getAllByTestId("saved-row").map((r) => r.dataset.name)).toEqual(["two plus three", "forty two"]);
  });

  it("shows a call followed from an eval trace marked, whatever the filter, and says when it is gone", () => {
    const byEval: HistoryEntry = {
      ...entry("h3", "add", { a: 2, b: 3 }, { structuredContent: { sum: 5 } }),
      origin: { by: "eval", run: "r1", case: "add", model: "fake-good", variant: "as-served" },
    };
    saved.update((s) => ({ ...s, servers: { demo: { ...s.servers.demo!, history: [byEval, ...s.servers.demo!.history], focus: "h3" } } }));
    render(<SavedTab server={server()} />);
    fireEvent.change(screen.getByTestId("history-filter"), { target: { value: "echo" } });
    const rows = screen.getAllByTestId("history-row");
    expect(rows.map((r) => [r.dataset.id, r.dataset.focused])).toEqual([
      ["h3", "true"],
      ["h2", "false"],
    ]);
    expect(within(rows[0]!).getByTestId("history-by-eval").textContent).toContain("eval add · fake-good");
    expect(screen.queryByTestId("history-focus-gone")).toBeNull();
    cleanup();
    saved.update((s) => ({ ...s, servers: { demo: { ...s.servers.demo!, focus: "gone" } } }));
    render(<SavedTab server={server()} />);
    expect(screen.getByTestId("history-focus-gone")).toBeTruthy();
  });

  it("says what appears when there is nothing yet, and when a filter matches nothing", () => {
    saved.update((state) => ({
      ...state,
      servers: { demo: { status: "loaded", calls: [], history: [], error: null, runs: {}, focus: null } },
    }));
    render(<SavedTab server={server()} />);
    expect(screen.getByTestId("saved-empty").textContent).toContain("No saved calls");
    expect(screen.getByTestId("history-empty").textContent).toContain("No history yet");
    cleanup();
    saved.update((state) => ({
      ...state,
      servers: { demo: { status: "loaded", calls: [call], history: [], error: null, runs: {}, focus: null } },
    }));
    render(<SavedTab server={server()} />);
    fireEvent.change(screen.getByLabelText("Filter saved calls"), { target: { value: "nothing like it" } });
    expect(screen.getByText('No saved call matches "nothing like it".')).toBeTruthy();
  });
});
