import { describe, expect, it } from "vitest";
import { comboLabel, comboMatches, isTyping, SHORTCUTS, shortcutFor, shortcutLabels, type KeyEventLike } from "./shortcuts";

const key = (k: string, mods: Partial<KeyEventLike> = {}): KeyEventLike => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

describe("the shortcuts table", () => {
  it("gives every action one row and no combination to two actions", () => {
    const actions = SHORTCUTS.map((s) => s.action);
    expect(new Set(actions).size).toBe(actions.length);
    const combos = SHORTCUTS.flatMap((s) => s.combos.map((c) => JSON.stringify({ ...c, key: c.key.toLowerCase() })));
    expect(new Set(combos).size).toBe(combos.length);
  });

  it("opens the palette with Ctrl+K, or ⌘K on macOS", () => {
    expect(shortcutFor(key("k", { ctrlKey: true }), false, false)?.action).toBe("palette");
    expect(shortcutFor(key("K", { ctrlKey: true }), true, false)?.action).toBe("palette");
    expect(shortcutFor(key("k", { metaKey: true }), false, true)?.action).toBe("palette");
    expect(shortcutFor(key("k", { ctrlKey: true }), false, true)).toBeUndefined();
  });

  it("tells Ctrl+Enter (call) from Ctrl+Shift+Enter (re-run) and Alt+Enter (connect)", () => {
    expect(shortcutFor(key("Enter", { ctrlKey: true }), true, false)?.action).toBe("call-tool");
    expect(shortcutFor(key("Enter", { ctrlKey: true, shiftKey: true }), true, false)?.action).toBe("rerun-last");
    expect(shortcutFor(key("Enter", { altKey: true }), true, false)?.action).toBe("connect");
    expect(shortcutFor(key("Enter"), false, false)).toBeUndefined();
  });

  it("leaves ? and / to a text field, and takes them elsewhere", () => {
    expect(shortcutFor(key("?", { shiftKey: true }), false, false)?.action).toBe("shortcuts");
    expect(shortcutFor(key("?", { shiftKey: true }), true, false)).toBeUndefined();
    expect(shortcutFor(key("/"), false, false)?.action).toBe("focus-traffic-filter");
    expect(shortcutFor(key("/"), true, false)).toBeUndefined();
  });

  it("moves between servers with Alt+arrows or Ctrl+brackets", () => {
    expect(shortcutFor(key("ArrowDown", { altKey: true }), false, false)?.action).toBe("next-server");
    expect(shortcutFor(key("[", { ctrlKey: true }), false, false)?.action).toBe("previous-server");
    expect(comboMatches({ key: "ArrowDown", alt: true }, key("ArrowDown"), false)).toBe(false);
  });

  it("writes the keys for each platform", () => {
    expect(comboLabel({ key: "Enter", mod: true, shift: true }, false)).toBe("Ctrl+Shift+Enter");
    expect(comboLabel({ key: "k", mod: true }, true)).toBe("⌘K");
    expect(shortcutLabels(SHORTCUTS.find((s) => s.action === "shortcuts")!, false)).toEqual(["?"]);
  });

  it("knows when the focus is in a text field", () => {
    const text = document.createElement("input");
    const box = document.createElement("input");
    box.type = "checkbox";
    expect(isTyping(text)).toBe(true);
    expect(isTyping(box)).toBe(false);
    expect(isTyping(document.createElement("textarea"))).toBe(true);
    expect(isTyping(document.createElement("button"))).toBe(false);
    expect(isTyping(null)).toBe(false);
  });
});
