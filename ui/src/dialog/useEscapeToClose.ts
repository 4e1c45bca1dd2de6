// Escape closes the dialog on top, and only that one: a dialog opened over another (a form over
// a list, Settings over a view) must not close the one beneath with the same key press.
import { useEffect, useEffectEvent } from "react";

/** The dialogs open now, oldest first; each is a token of its own. */
const open: symbol[] = [];

export function useEscapeToClose(onClose: () => void): void {
  const close = useEffectEvent(onClose);
  useEffect(() => {
    const me = Symbol("dialog");
    open.push(me);
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && open[open.length - 1] === me) close();
    };
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("keydown", onKey);
      open.splice(open.indexOf(me), 1);
    };
  }, []);
}
