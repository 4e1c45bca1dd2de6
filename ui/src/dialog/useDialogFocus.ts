// A modal dialog holds the focus while it is open: it takes it on open (unless a field of its
// own took it first, with autoFocus), Tab cycles inside it, and on close the focus goes back to
// where it was, so the keyboard user carries on from the button that opened it.
import { useEffect, type KeyboardEvent, type RefObject } from "react";

const TABBABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function useDialogFocus(panel: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const before = document.activeElement;
    const element = panel.current;
    if (element && !element.contains(document.activeElement)) element.focus();
    return () => {
      if (before instanceof HTMLElement && before.isConnected) before.focus();
    };
  }, [panel]);
}

/** The panel's key handler: Tab past its last control comes back to its first, and the reverse. */
export function keepTabInside(event: KeyboardEvent<HTMLElement>): void {
  if (event.key !== "Tab") return;
  // Only controls laid out count: a hidden one cannot take the focus.
  const tabbable = [...event.currentTarget.querySelectorAll<HTMLElement>(TABBABLE)].filter((e) => e.getClientRects().length > 0);
  const first = tabbable[0];
  const last = tabbable[tabbable.length - 1];
  if (!first || !last) return;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === event.currentTarget)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}
