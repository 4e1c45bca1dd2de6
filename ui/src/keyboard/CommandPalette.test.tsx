import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { ServerEntry } from "../bindings/ServerEntry";
import { connections, resetConnections, select, setCatalog, updateServer } from "../state/connections";
import { resetLists, setList } from "../state/lists";
import { toolView } from "../testing/views";
import { CommandPalette } from "./CommandPalette";
import { ShortcutsSheet } from "./ShortcutsSheet";
import { closeOverlay, openOverlay, overlays } from "./overlays";
import { SHORTCUTS } from "./shortcuts";

const invoke = vi.hoisted(() => vi.fn());
vi.mock("@tauri-apps/api/core", () => ({ invoke, Channel: class {} }));

const demo = { id: "demo", name: "Demo server", era: "auto", target: { transport: "stdio", command: "demo", args: [], env: [], cwd: null } } as unknown as ServerEntry;

beforeAll(() => {
  // jsdom has no layout: cmdk scrolls the active item into view.
  Element.prototype.scrollIntoView = () => undefined;
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
});

beforeEach(() => {
  invoke.mockReset();
  // What the Rust side answers for the lists and saved calls the palette loads.
  invoke.mockImplementation((command: string) =>
    Promise.resolve(command === "list_items" || command === "list_page" ? { list: { kind: "tools", items: [] }, next_cursor: null, cache: null } : []),
  );
  resetConnections();
  resetLists();
  setCatalog([demo]);
  select("demo");
  updateServer("demo", (s) => ({ ...s, status: { state: "ready", protocol_version: "2025-11-25" } }));
  setList("demo", "tools", { status: "loaded", items: [toolView({ name: "add" })], error: null });
});
afterEach(() => {
  act(() => closeOverlay());
  cleanup();
});

describe("the command palette", () => {
  it("is a modal dialog with a search box, and Enter on a tool opens it in the Tools tab", async () => {
    render(<CommandPalette />);
    act(() => openOverlay("palette"));
    const dialog = await screen.findByRole("dialog");
    expect(dialog.getAttribute("aria-modal") ?? "true").toBe("true");
    const input = screen.getByTestId("palette-input");
    await waitFor(() => expect(document.activeElement).toBe(input));
    fireEvent.change(input, { target: { value: "add" } });
    await waitFor(() => expect(screen.getAllByTestId("palette-item")[0]?.dataset.itemId).toBe("tool:add"));
    fireEvent.keyDown(input, { key: "Enter" });
    await waitFor(() => expect(overlays.getState().open).toBeNull());
    const server = connections.getState().servers.demo!;
    expect(server.tab).toBe("tools");
    expect(server.tools.selected).toBe("add");
  });
});

describe("the shortcuts sheet", () => {
  it("lists every row of the shortcuts table", async () => {
    render(<ShortcutsSheet />);
    act(() => openOverlay("shortcuts"));
    await screen.findByRole("dialog", { name: "Keyboard shortcuts" });
    const rows = screen.getAllByTestId("shortcut-row").map((r) => r.dataset.action);
    expect(rows).toEqual(SHORTCUTS.map((s) => s.action));
  });
});
