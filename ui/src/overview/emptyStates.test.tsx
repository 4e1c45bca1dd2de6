// The empty states of the Overview, OAuth, Requests and Tasks tabs: what will appear, how to
// make it appear, in English and in Chinese.
import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AuthReport } from "../bindings/AuthReport";
import { applyLanguage } from "../i18n";
import { OAuthTab } from "../oauth/OAuthTab";
import { RequestsTab } from "../requests/RequestsTab";
import { resetAsks } from "../state/asks";
import { newServerState, resetConnections, type ServerState } from "../state/connections";
import { dispatchEvents } from "../state/dispatcher";
import { setFrameSchedule } from "../state/notifier";
import { tasks } from "../state/tasks";
import { resetTraffic } from "../state/traffic";
import { TasksTab } from "../tasks/TasksTab";
import { OverviewTab } from "./OverviewTab";

const invoke = vi.hoisted(() => vi.fn());
vi.mock("@tauri-apps/api/core", () => ({ invoke, Channel: class {} }));

const T0 = 1_700_000_000_000;
const server = (status: ServerState["status"]): ServerState => ({ ...newServerState("s"), status });

beforeEach(() => {
  setFrameSchedule((f) => f());
  resetConnections();
  resetTraffic();
  resetAsks();
  tasks.update(() => ({ servers: {} }));
  invoke.mockReset();
  invoke.mockImplementation((command: string) => {
    if (command === "task_list") return Promise.resolve([]);
    if (command === "host_settings") return Promise.resolve({ roots: [], sampling_rule: null });
    return Promise.resolve(null);
  });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  applyLanguage("en");
});

describe("empty states", () => {
  it("Overview: not connected says what will appear and offers Connect", () => {
    render(<OverviewTab server={server({ state: "disconnected" })} />);
    const empty = screen.getByTestId("overview-empty");
    expect(empty.textContent).toContain("Connect to the server to see what it says about itself.");
    expect(screen.getByRole("button", { name: "Connect" })).toBeTruthy();
  });

  it("Overview: connecting shows how long it has taken", () => {
    vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"] });
    vi.setSystemTime(T0 + 3_000);
    act(() => void dispatchEvents([{ type: "status", server_id: "s", status: { state: "connecting" } }], T0 * 1000));
    render(<OverviewTab server={server({ state: "connecting" })} />);
    expect(screen.getByTestId("overview-connecting").textContent).toContain("Connecting…");
    expect(screen.getByTestId("connect-elapsed").textContent).toBe("3 s");
  });

  it("OAuth: a server that never asked for a sign-in says so", async () => {
    const report: AuthReport = { steps: [], token: null, store: "file", store_note: null };
    invoke.mockImplementation(() => Promise.resolve(report));
    render(<OAuthTab server={server({ state: "ready", protocol_version: "2025-11-25" })} />);
    expect((await screen.findByTestId("oauth-no-token")).textContent).toContain("No sign-in needed so far");
    expect(screen.getByTestId("oauth-store").textContent).toBe("Tokens are kept in an owner-only file (mode 0600).");
  });

  it("OAuth: before any connection, in Chinese", () => {
    applyLanguage("zh-Hans");
    render(<OAuthTab server={server({ state: "disconnected" })} />);
    expect(screen.getByText("尚未登录")).toBeTruthy();
    expect(screen.getByRole("button", { name: "连接" })).toBeTruthy();
  });

  it("Requests: none yet keeps its sentence under a title", async () => {
    render(<RequestsTab server={server({ state: "ready", protocol_version: "2025-11-25" })} />);
    const empty = screen.getByTestId("requests-empty");
    expect(empty.textContent).toContain("No requests yet");
    expect(screen.getByText("No requests from the server yet. Elicitation, sampling and URL consent decisions appear here.")).toBeTruthy();
    expect(await screen.findByTestId("roots-empty")).toBeTruthy();
  });

  it("Tasks: none yet points to the Tools tab", () => {
    render(<TasksTab server={server({ state: "ready", protocol_version: "2025-11-25" })} />);
    expect(screen.getByTestId("tasks-empty").textContent).toContain("No tasks yet");
    expect(screen.getByRole("button", { name: "Open the Tools tab" })).toBeTruthy();
  });
});
