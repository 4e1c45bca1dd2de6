// The app-wide key handler: one listener on the window that looks each key up in the
// shortcuts table (keyboard/shortcuts.ts) and runs what it names.
import { useEffect } from "react";
import { runShortcut } from "./commands";
import { overlays } from "./overlays";
import { isMac, isTyping, shortcutFor, type KeyEventLike } from "./shortcuts";

/** Handles one key press; returns whether a shortcut took it. Exported for tests. */
export function handleKey(event: KeyEventLike & { target: EventTarget | null }, run = runShortcut, mac = isMac()): boolean {
  const shortcut = shortcutFor(event, isTyping(event.target), mac);
  if (!shortcut) return false;
  // While a dialog is open only the palette key works (it closes the palette again): the
  // others act on the view behind it.
  const open = overlays.getState().open;
  if (open !== null && shortcut.action !== "palette") return false;
  if (document.querySelector('[aria-modal="true"]') && open === null && shortcut.action !== "palette") return false;
  run(shortcut.action);
  return true;
}

export function useShortcuts(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      if (handleKey(event)) event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
