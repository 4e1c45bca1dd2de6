import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ServerEntry } from "../bindings/ServerEntry";
import { connections, resetConnections, setCatalog, select } from "../state/connections";
import { adjacentServer, runShortcut, selectAdjacentServer } from "./commands";
import { closeOverlay, openOverlay, overlays } from "./overlays";
import { handleKey } from "./useShortcuts";

const invoke = vi.hoisted(() => vi.fn());
vi.mock("@tauri-apps/api/core", () => ({ invoke, Channel: class {} }));

const press = (key: string, mods: { ctrlKey?: boolean; shiftKey?: boolean; altKey?: boolean } = {}, target: EventTarget | null = document.body) => ({
  key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
  target,
});

const entry = (id: string): ServerEntry =>
  ({ id, name: id, era: "auto", target: { transport: "stdio", command: "x", args: [], env: [], cwd: null } }) as unknown as ServerEntry;

beforeEach(() => {
  resetConnections();
  closeOverlay();
  invoke.mockReset();
});
afterEach(() => closeOverlay());

describe("the key handler", () => {
  it("runs the action the table names, and only that", () => {
    const run = vi.fn();
    expect(handleKey(press("k", { ctrlKey: true }), run, false)).toBe(true);
    expect(run).toHaveBeenCalledWith("palette");
    expect(handleKey(press("x"), run, false)).toBe(false);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it("leaves ? to an input the user types in", () => {
    const run = vi.fn();
    const input = document.createElement("input");
    expect(handleKey(press("?", { shiftKey: true }, input), run, false)).toBe(false);
    expect(handleKey(press("?", { shiftKey: true }), run, false)).toBe(true);
    expect(run).toHaveBeenCalledWith("shortcuts");
  });

  it("while a dialog is open, only the palette key works", () => {
    const run = vi.fn();
    openOverlay("about");
    expect(handleKey(press("ArrowDown", { altKey: true }), run, false)).toBe(false);
    expect(handleKey(press("k", { ctrlKey: true }), run, false)).toBe(true);
    expect(run).toHaveBeenCalledWith("palette");
  });

  it("toggles the palette and opens the sheet through the overlay state", () => {
    runShortcut("palette");
    expect(overlays.getState().open).toBe("palette");
    runShortcut("palette");
    expect(overlays.getState().open).toBeNull();
    runShortcut("shortcuts");
    expect(overlays.getState().open).toBe("shortcuts");
  });
});

describe("next and previous server", () => {
  it("wraps around the catalog", () => {
    expect(adjacentServer(["a", "b", "c"], "c", 1)).toBe("a");
    expect(adjacentServer(["a", "b", "c"], "a", -1)).toBe("c");
    expect(adjacentServer(["a", "b"], null, 1)).toBe("a");
    expect(adjacentServer([], null, 1)).toBeNull();
  });

  it("selects the neighbour in the catalog", () => {
    setCatalog([entry("a"), entry("b")]);
    select("a");
    selectAdjacentServer(1);
    expect(connections.getState().selectedId).toBe("b");
  });
});
