// Which app-wide overlay is open: the command palette, the shortcuts sheet, the About dialog,
// Settings, or the audit of every connected server together.
// One at a time: opening one closes the other (the palette's "Shortcuts" item opens the sheet).
import { Notifier, useNotifier } from "../state/notifier";

export type Overlay = "palette" | "shortcuts" | "about" | "settings" | "audit";

export const overlays = new Notifier<{ open: Overlay | null }>({ open: null });

export const useOverlay = (): Overlay | null => useNotifier(overlays, (s) => s.open);

export function openOverlay(which: Overlay): void {
  overlays.update((s) => (s.open === which ? s : { open: which }));
}

export function closeOverlay(): void {
  overlays.update((s) => (s.open === null ? s : { open: null }));
}

/** Ctrl+K twice closes the palette again. */
export function toggleOverlay(which: Overlay): void {
  overlays.update((s) => ({ open: s.open === which ? null : which }));
}
