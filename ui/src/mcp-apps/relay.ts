// The relay between one app frame and the Rust side, and nothing more: what the frame posts
// goes to `mcp_app_from_view` as text, untouched (the engine records it before reading it);
// what the engine sends back is applied to that view only. No protocol logic here.
import type { McpAppDisplayMode, McpAppOut } from "../ipc/mcpApps";

/** The size an app may ask for, in px: small enough to stay usable, big enough to be seen. */
export const MIN_SIZE = 80;
export const MAX_SIZE = 4000;

/** A size the app asked for, kept within [MIN_SIZE, MAX_SIZE]; null when it named none. */
export function clampSize(px: number | null | undefined): number | null {
  if (px === null || px === undefined || !Number.isFinite(px)) return null;
  return Math.round(Math.min(MAX_SIZE, Math.max(MIN_SIZE, px)));
}

/** What a view shows, as the engine's messages left it. */
export interface ViewLayout {
  width: number | null;
  height: number | null;
  mode: McpAppDisplayMode;
  /** Why the view ended, once the engine says it has. */
  closed: string | null;
}

export const INITIAL_LAYOUT: ViewLayout = { width: null, height: null, mode: "inline", closed: null };

/**
 * One engine message applied to the view's layout. `post` hands the text to `deliver` (the
 * frame's window); the others change only this view's layout.
 */
export function applyOut(layout: ViewLayout, out: McpAppOut, deliver: (text: string) => void): ViewLayout {
  switch (out.kind) {
    case "post":
      deliver(out.text);
      return layout;
    case "resize": {
      // A side the app did not name keeps its size.
      const width = clampSize(out.width) ?? layout.width;
      const height = clampSize(out.height) ?? layout.height;
      return width === layout.width && height === layout.height ? layout : { ...layout, width, height };
    }
    case "display_mode":
      return out.mode === layout.mode ? layout : { ...layout, mode: out.mode };
    case "closed":
      return { ...layout, closed: out.reason };
  }
}

/** Posts the engine's message to the frame's window (its origin is opaque, hence "*"). */
export function postToFrame(target: Window | null | undefined, text: string): boolean {
  if (!target) return false;
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    // The engine sends JSON it wrote; anything else is not passed on to the app.
    return false;
  }
  target.postMessage(message, "*");
  return true;
}

/**
 * The text of a `message` event for the engine, when it came from this view's frame; null for
 * any other source (another app's frame, the page itself, an extension).
 */
export function fromFrame(event: MessageEvent, frame: Window | null | undefined): string | null {
  if (!frame || event.source !== frame) return null;
  const data: unknown = event.data;
  if (typeof data === "string") return data;
  try {
    return JSON.stringify(data) ?? "null";
  } catch {
    // Structured-clone data JSON cannot hold (a cycle, a BigInt): the engine is told so, as text.
    return String(data);
  }
}
