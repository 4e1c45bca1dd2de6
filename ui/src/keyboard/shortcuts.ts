// The one table of keyboard shortcuts: the global handler (useShortcuts.ts) dispatches from it
// and the shortcuts sheet lists it, so the sheet cannot say something the keys do not do.
// Descriptions are keys of the keyboard namespace, translated when the sheet renders.
import type { ParseKeys } from "i18next";

/** A key of the keyboard's strings (src/i18n/locales/en/keyboard.json). */
export type KeyboardKey = ParseKeys<"keyboard">;

/** What a shortcut does (each is carried out by keyboard/commands.ts). */
export type ShortcutAction =
  | "palette"
  | "shortcuts"
  | "call-tool"
  | "rerun-last"
  | "connect"
  | "focus-traffic-filter"
  | "next-server"
  | "previous-server"
  | "open-recording";

/** One key combination. `mod` is Ctrl, or ⌘ on macOS. */
export interface KeyCombo {
  /** `KeyboardEvent.key`, compared case-insensitively for letters. */
  key: string;
  mod?: boolean;
  shift?: boolean;
  alt?: boolean;
}

export interface Shortcut {
  action: ShortcutAction;
  /** Any of these triggers it. */
  combos: readonly KeyCombo[];
  /** What the sheet says it does (a key of the keyboard namespace). */
  description: KeyboardKey;
  /**
   * Whether it works while the focus is in a text field. Plain keys (`?`, `/`) do not: they
   * are text there. Combinations with Ctrl/⌘ or Alt do.
   */
  whileTyping: boolean;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { action: "palette", combos: [{ key: "k", mod: true }], description: "shortcuts.palette", whileTyping: true },
  { action: "shortcuts", combos: [{ key: "?", shift: true }, { key: "?" }], description: "shortcuts.shortcuts", whileTyping: false },
  {
    action: "call-tool",
    combos: [{ key: "Enter", mod: true }],
    description: "shortcuts.callTool",
    whileTyping: true,
  },
  {
    action: "rerun-last",
    combos: [{ key: "Enter", mod: true, shift: true }],
    description: "shortcuts.rerunLast",
    whileTyping: true,
  },
  {
    action: "connect",
    combos: [{ key: "Enter", alt: true }],
    description: "shortcuts.connect",
    whileTyping: true,
  },
  {
    action: "focus-traffic-filter",
    combos: [{ key: "/" }, { key: "f", mod: true }],
    description: "shortcuts.trafficFilter",
    whileTyping: false,
  },
  {
    action: "next-server",
    combos: [{ key: "ArrowDown", alt: true }, { key: "]", mod: true }],
    description: "shortcuts.nextServer",
    whileTyping: true,
  },
  {
    action: "previous-server",
    combos: [{ key: "ArrowUp", alt: true }, { key: "[", mod: true }],
    description: "shortcuts.previousServer",
    whileTyping: true,
  },
  {
    action: "open-recording",
    combos: [{ key: "o", mod: true }],
    description: "shortcuts.openRecording",
    whileTyping: true,
  },
];

/**
 * Keys the sheet lists that are not in the table because the browser or a widget handles them
 * (keys of the keyboard namespace: the keys' names, and where, are translated too).
 */
export const BUILT_IN_KEYS: ReadonlyArray<{ keys: KeyboardKey; description: KeyboardKey }> = [
  { keys: "builtIn.tab.keys", description: "builtIn.tab.description" },
  { keys: "builtIn.tabBar.keys", description: "builtIn.tabBar.description" },
  { keys: "builtIn.trafficList.keys", description: "builtIn.trafficList.description" },
  { keys: "builtIn.select.keys", description: "builtIn.select.description" },
  { keys: "builtIn.close.keys", description: "builtIn.close.description" },
];

export interface KeyEventLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

export const isMac = (): boolean => typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);

/** Whether the event is this combination (modifiers exact, so Ctrl+Shift+Enter is not Ctrl+Enter). */
export function comboMatches(combo: KeyCombo, event: KeyEventLike, mac: boolean): boolean {
  const mod = mac ? event.metaKey : event.ctrlKey;
  const other = mac ? event.ctrlKey : event.metaKey;
  if (mod !== Boolean(combo.mod) || other) return false;
  if (event.altKey !== Boolean(combo.alt)) return false;
  // `?` needs Shift on most layouts: for it the key is what counts, not the Shift.
  if (combo.key !== "?" && event.shiftKey !== Boolean(combo.shift)) return false;
  return combo.key.length === 1 ? event.key.toLowerCase() === combo.key.toLowerCase() : event.key === combo.key;
}

/** The shortcut an event triggers, if any. */
export function shortcutFor(event: KeyEventLike, typing: boolean, mac: boolean): Shortcut | undefined {
  return SHORTCUTS.find((s) => (s.whileTyping || !typing) && s.combos.some((c) => comboMatches(c, event, mac)));
}

/** Whether the focus is where keys are text (an input, a text area, a code editor). */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) {
    return !["checkbox", "radio", "button", "submit", "reset", "range", "color", "file"].includes(target.type);
  }
  return false;
}

const KEY_NAMES: Record<string, string> = { ArrowDown: "↓", ArrowUp: "↑", Enter: "Enter" };

/** How a combination is written for people: `Ctrl+Shift+Enter`, or `⌘⇧Enter` on macOS. */
export function comboLabel(combo: KeyCombo, mac: boolean): string {
  const key = KEY_NAMES[combo.key] ?? (combo.key.length === 1 ? combo.key.toUpperCase() : combo.key);
  if (combo.key === "?" || combo.key === "/") return combo.key;
  const parts: string[] = [];
  if (combo.mod) parts.push(mac ? "⌘" : "Ctrl");
  if (combo.alt) parts.push(mac ? "⌥" : "Alt");
  if (combo.shift) parts.push(mac ? "⇧" : "Shift");
  parts.push(key);
  return parts.join(mac ? "" : "+");
}

/** The combinations a sheet shows for a shortcut (the `?` written once). */
export function shortcutLabels(shortcut: Shortcut, mac: boolean): string[] {
  return [...new Set(shortcut.combos.map((c) => comboLabel(c, mac)))];
}

/** The first label of an action's shortcut, for hints in the palette. */
export function hintFor(action: ShortcutAction, mac: boolean): string | undefined {
  const shortcut = SHORTCUTS.find((s) => s.action === action);
  return shortcut && shortcutLabels(shortcut, mac)[0];
}
