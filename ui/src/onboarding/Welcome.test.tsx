import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ServerEntry } from "../bindings/ServerEntry";
import { applyLanguage } from "../i18n";
import { connections, resetConnections, setCatalog, select } from "../state/connections";
import { closeImport, closeServerForm, sidebarDialogs } from "../sidebar/dialogs";
import { Welcome } from "./Welcome";

const invoke = vi.hoisted(() => vi.fn());
vi.mock("@tauri-apps/api/core", () => ({ invoke, Channel: class {} }));

const entry = (id: string, name: string): ServerEntry =>
  ({ id, name, era: "auto", target: { transport: "stdio", command: "periscope-demo-server", args: [], env: [], cwd: null } }) as unknown as ServerEntry;

let hostFiles: unknown[] = [];

beforeEach(() => {
  hostFiles = [];
  invoke.mockReset();
  invoke.mockImplementation((command: string) => Promise.resolve(command === "import_host_files" ? hostFiles : undefined));
  resetConnections();
  setCatalog([entry("demo", "Demo server"), entry("demo-legacy", "Demo server (legacy era)")]);
  select(null);
});

afterEach(() => {
  cleanup();
  act(() => {
    closeServerForm();
    closeImport();
  });
  applyLanguage("en");
});

describe("the welcome view", () => {
  it("opens the demo server, and keeps the sentence the empty main area always said", async () => {
    render(<Welcome />);
    expect(screen.getByTestId("welcome").textContent).toContain("Select a server on the left, or add one.");
    fireEvent.click(screen.getByTestId("welcome-demo"));
    expect(connections.getState().selectedId).toBe("demo");
    await screen.findByTestId("welcome-hosts-none");
  });

  it("fills the box from an example, and Continue opens the form for a URL, the import preview otherwise", async () => {
    render(<Welcome />);
    const paste = screen.getByTestId<HTMLTextAreaElement>("welcome-paste");
    const next = screen.getByTestId<HTMLButtonElement>("welcome-continue");
    expect(next.disabled).toBe(true);

    fireEvent.click(screen.getByTestId("welcome-example-1"));
    expect(paste.value).toBe("https://example.com/mcp");
    expect(next.dataset.route).toBe("url");
    fireEvent.click(next);
    expect(sidebarDialogs.getState().form).toMatchObject({
      entry: null,
      initial: { transport: "http", url: "https://example.com/mcp", name: "example.com" },
    });
    expect(sidebarDialogs.getState().importing).toBeNull();

    fireEvent.click(screen.getByTestId("welcome-example-0"));
    fireEvent.click(next);
    expect(sidebarDialogs.getState().importing).toMatchObject({ text: "npx -y @modelcontextprotocol/server-everything" });
    expect(sidebarDialogs.getState().form).toBeNull();

    fireEvent.click(screen.getByTestId("welcome-example-2"));
    expect(next.dataset.route).toBe("config");
    fireEvent.click(next);
    expect(sidebarDialogs.getState().importing?.text).toContain('"mcpServers"');
    // Only dialogs opened: nothing was saved, imported or connected.
    expect(invoke.mock.calls.map(([command]) => command)).toEqual(["import_host_files"]);
    await screen.findByTestId("welcome-hosts-none");
  });

  it("lists the host configs found, each opening the import preview on its file", async () => {
    hostFiles = [{ dialect: "claude-desktop", path: "/home/ada/.config/Claude/claude_desktop_config.json", scope: "user" }];
    render(<Welcome />);
    const file = await screen.findByTestId("welcome-host-file");
    expect(screen.getByTestId("welcome-hosts").textContent).toContain("Claude Desktop");
    fireEvent.click(file);
    expect(sidebarDialogs.getState().importing).toMatchObject({ file: "/home/ada/.config/Claude/claude_desktop_config.json" });
  });

  it("says which hosts are looked for when none is found, in the UI's language", async () => {
    applyLanguage("zh-Hans");
    render(<Welcome />);
    const none = await screen.findByTestId("welcome-hosts-none");
    expect(none.textContent).toContain("Claude Desktop");
    expect(none.textContent).toContain("没有找到");
  });

  it("says when the demo server was removed", async () => {
    setCatalog([entry("mine", "Mine")]);
    select(null);
    render(<Welcome />);
    expect(screen.getByTestId<HTMLButtonElement>("welcome-demo").disabled).toBe(true);
    expect(screen.queryByTestId("welcome-demo-legacy")).toBeNull();
    expect(screen.getByTestId("welcome").textContent).toContain("no longer in your catalog");
    await screen.findByTestId("welcome-hosts-none");
  });
});
