// The one table of keyboard shortcuts: the global handler (useShortcuts.ts) dispatches from it
// and the shortcuts sheet lists it, so the sheet cannot say something the keys do not do.

/** What a shortcut does (each is carried out by keyboard/commands.ts). */
export type ShortcutAction =
  | "palette"
  | "shortcuts"
  | "call-tool"
  | "rerun-last"
  | "connect"
  | "focus-traffic-filter"
  | "next-server"
  | "previous-server";

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
  /** What the sheet says it does. */
  description: string;
  /**
   * Whether it works while the focus is in a text field. Plain keys (`?`, `/`) do not: they
   * are text there. Combinations with Ctrl/⌘ or Alt do.
   */
  whileTyping: boolean;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { action: "palette", combos: [{ key: "k", mod: true }], description: "Open the command palette", whileTyping: true },
  { action: "shortcuts", combos: [{ key: "?", shift: true }, { key: "?" }], description: "Show these shortcuts", whileTyping: false },
  {
    action: "call-tool",
    combos: [{ key: "Enter", mod: true }],
    description: "Call the selected tool (Tools tab)",
    whileTyping: true,
  },
  {
    action: "rerun-last",
    combos: [{ key: "Enter", mod: true, shift: true }],
    description: "Re-run the last call of the selected server",
    whileTyping: true,
  },
  {
    action: "connect",
    combos: [{ key: "Enter", alt: true }],
    description: "Connect the selected server (reconnect when connected)",
    whileTyping: true,
  },
  {
    action: "focus-traffic-filter",
    combos: [{ key: "/" }, { key: "f", mod: true }],
    description: "Show Traffic and focus its filter",
    whileTyping: false,
  },
  {
    action: "next-server",
    combos: [{ key: "ArrowDown", alt: true }, { key: "]", mod: true }],
    description: "Select the next server",
    whileTyping: true,
  },
  {
    action: "previous-server",
    combos: [{ key: "ArrowUp", alt: true }, { key: "[", mod: true }],
    description: "Select the previous server",
    whileTyping: true,
  },
];

/** Keys the sheet lists that are not in the table because the browser or a widget handles them. */
export const BUILT_IN_KEYS: ReadonlyArray<{ keys: string; description: string }> = [
  { keys: "Tab / Shift+Tab", description: "Move between controls" },
  { keys: "← / → (tab bar)", description: "Move between a server's views" },
  { keys: "↑ / ↓ (traffic list)", description: "Move between frames" },
  { keys: "Enter / Space", description: "Select the focused server, frame or button" },
  { keys: "Esc", description: "Close a dialog or the palette" },
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
