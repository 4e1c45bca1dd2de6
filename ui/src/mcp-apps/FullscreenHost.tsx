// Fullscreen for an app: the same element, laid over the window by a class, never moved in the
// DOM (moving an iframe reloads it, and the app would start over). Esc goes back to inline.
// Keys typed inside the app's frame stay in the frame (another origin): the Inline button is
// always shown in the overlay.
import { useEffect, type ReactNode } from "react";

interface Props {
  fullscreen: boolean;
  onExit: () => void;
  children: ReactNode;
}

export function FullscreenHost({ fullscreen, onExit, children }: Props) {
  useEffect(() => {
    if (!fullscreen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.preventDefault();
      event.stopPropagation();
      onExit();
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, [fullscreen, onExit]);
  return (
    <div
      className={fullscreen ? "mcp-app-host fullscreen" : "mcp-app-host"}
      data-testid="mcp-app-host"
      data-mode={fullscreen ? "fullscreen" : "inline"}
      role={fullscreen ? "dialog" : undefined}
      aria-modal={fullscreen || undefined}
    >
      {children}
    </div>
  );
}
