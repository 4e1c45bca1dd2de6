// Two app views side by side: each frame's messages reach the engine under its own view number,
// messages from anywhere else are ignored, and what the engine sends a view changes that view
// only. Close sends the teardown first and removes the frame when the engine says it is closed.
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useEffect } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { McpAppOpened, McpAppOut } from "../ipc/mcpApps";
import { McpAppPanel } from "./McpAppPanel";
import { useMcpAppView } from "./useMcpAppView";

const channels: Array<{ onmessage: ((out: McpAppOut) => void) | null }> = [];
const invoke = vi.fn();
vi.mock("@tauri-apps/api/core", () => ({
  invoke: (...args: unknown[]) => invoke(...args) as unknown,
  Channel: class {
    onmessage: ((out: McpAppOut) => void) | null = null;
    constructor() {
      channels.push(this);
    }
  },
}));

const opened = (view: number): McpAppOpened => ({
  view,
  src: `periscope-app://token${view}/`,
  title: `App ${view}`,
  prefers_border: true,
  csp: { header: "default-src 'none'", external: [], dropped: [] },
  problems: [],
  sha256: "00",
});

function Harness({ uri }: { uri: string }) {
  const view = useMcpAppView("demo", uri);
  const { open } = view;
  useEffect(() => {
    void open({ kind: "resource" });
  }, [open]);
  return <McpAppPanel serverId="demo" resourceUri={uri} view={view} />;
}

const frameOf = (view: number) => document.querySelector<HTMLIFrameElement>(`iframe[data-view="${view}"]`)!;
const callsOf = (command: string) => invoke.mock.calls.filter(([name]) => name === command);
/** The display-mode changes told to apps (theme and size changes left out). */
const modeChanges = () =>
  callsOf("mcp_app_context")
    .map(([, args]) => args as { change: { display_mode: string | null } })
    .filter((args) => args.change.display_mode !== null);

beforeEach(() => {
  channels.length = 0;
  invoke.mockReset();
  invoke.mockImplementation((command: string, args: { resourceUri?: string }) => {
    if (command === "mcp_app_open") return Promise.resolve(opened(args.resourceUri === "ui://a" ? 1 : 2));
    return Promise.resolve(null);
  });
});
afterEach(cleanup);

async function renderTwo() {
  render(
    <>
      <Harness uri="ui://a" />
      <Harness uri="ui://b" />
    </>,
  );
  await screen.findByTitle(/App 1/);
  await screen.findByTitle(/App 2/);
}

describe("the app relay", () => {
  it("renders the frame sandboxed, without same-origin, permissions or referrer", async () => {
    await renderTwo();
    const frame = frameOf(1);
    expect(frame.getAttribute("sandbox")).toBe("allow-scripts allow-forms");
    expect(frame.getAttribute("allow")).toBe("");
    expect(frame.getAttribute("referrerpolicy")).toBe("no-referrer");
    expect(frame.getAttribute("src")).toBe("periscope-app://token1/");
    expect(screen.getAllByTestId("mcp-app-boundary")[0]!.textContent).toContain("App 1");
  });

  it("sends each frame's messages under its own view and ignores other sources", async () => {
    await renderTwo();
    const one = frameOf(1).contentWindow!;
    const two = frameOf(2).contentWindow!;
    act(() => {
      window.dispatchEvent(new MessageEvent("message", { data: { jsonrpc: "2.0", id: 1 }, source: one }));
      window.dispatchEvent(new MessageEvent("message", { data: "raw text", source: two }));
      // The page itself and anything else: not an app's message.
      window.dispatchEvent(new MessageEvent("message", { data: { forged: true }, source: window }));
      window.dispatchEvent(new MessageEvent("message", { data: { forged: true } }));
    });
    expect(callsOf("mcp_app_from_view").map(([, args]) => args as unknown)).toEqual([
      { view: 1, text: '{"jsonrpc":"2.0","id":1}' },
      { view: 2, text: "raw text" },
    ]);
  });

  it("applies the engine's messages to their own view only", async () => {
    await renderTwo();
    const posted = vi.spyOn(frameOf(2).contentWindow!, "postMessage");
    act(() => {
      channels[0]!.onmessage!({ kind: "resize", width: null, height: 10 });
      channels[1]!.onmessage!({ kind: "post", text: '{"jsonrpc":"2.0","method":"ui/notifications/tool-input"}' });
    });
    expect(frameOf(1).style.height).toBe("80px");
    expect(frameOf(2).style.height).toBe("320px");
    expect(posted).toHaveBeenCalledWith({ jsonrpc: "2.0", method: "ui/notifications/tool-input" }, "*");
    act(() => channels[1]!.onmessage!({ kind: "display_mode", mode: "fullscreen" }));
    const hosts = screen.getAllByTestId("mcp-app-host");
    expect(hosts.map((h) => h.dataset.mode)).toEqual(["inline", "fullscreen"]);
  });

  it("closes with the teardown first and removes the frame when the engine says closed", async () => {
    await renderTwo();
    fireEvent.click(screen.getAllByTestId("mcp-app-close")[0]!);
    await act(async () => undefined);
    expect(callsOf("mcp_app_close")[0]![1]).toMatchObject({ view: 1 });
    // Still there until the engine says it is closed.
    expect(frameOf(1)).not.toBeNull();
    act(() => channels[0]!.onmessage!({ kind: "closed", reason: "the user closed the app" }));
    expect(frameOf(1)).toBeNull();
    expect(frameOf(2)).not.toBeNull();
    expect(screen.getByTestId("mcp-app-closed").textContent).toContain("the user closed the app");
  });

  it("goes back inline on Esc in fullscreen and tells the app", async () => {
    await renderTwo();
    fireEvent.click(screen.getAllByTestId("mcp-app-fullscreen")[0]!);
    expect(modeChanges()[0]).toMatchObject({ view: 1, change: { display_mode: "fullscreen" } });
    fireEvent.keyDown(window, { key: "Escape" });
    expect(screen.getAllByTestId("mcp-app-host")[0]!.dataset.mode).toBe("inline");
    expect(modeChanges()[1]).toMatchObject({ view: 1, change: { display_mode: "inline" } });
  });

  it("tells each open app the page's theme, and again when it changes", async () => {
    document.documentElement.dataset.theme = "light";
    await renderTwo();
    const themes = () => callsOf("mcp_app_context").map(([, args]) => args as { view: number; change: { theme: string | null } });
    expect(themes().filter((c) => c.change.theme === "light").map((c) => c.view).sort()).toEqual([1, 2]);
    document.documentElement.dataset.theme = "dark";
    await act(async () => {
      await new Promise((done) => setTimeout(done, 200));
    });
    expect(themes().filter((c) => c.change.theme === "dark").map((c) => c.view).sort()).toEqual([1, 2]);
  });
});
