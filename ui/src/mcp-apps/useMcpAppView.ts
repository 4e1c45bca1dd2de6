// One app view's life in a panel: open (the engine reads the resource and hands out a src),
// the engine's messages applied to this view, close (the teardown request first, the frame
// removed when the engine says the view is closed), reload. Unmounting the panel closes the view.
import { useCallback, useEffect, useRef, useState } from "react";
import { errorMessage } from "../ipc";
import {
  mcpAppsIpc,
  type McpAppDisplayMode,
  type McpAppOpened,
  type McpAppOut,
  type McpAppSource,
} from "../ipc/mcpApps";
import { INITIAL_LAYOUT, applyOut, postToFrame, type ViewLayout } from "./relay";

export type ViewPhase =
  | { kind: "idle" }
  | { kind: "opening" }
  | { kind: "open"; opened: McpAppOpened }
  /** The teardown request is out: the frame stays until the engine says the view is closed. */
  | { kind: "closing"; opened: McpAppOpened }
  | { kind: "closed"; reason: string }
  | { kind: "failed"; error: string };

export interface McpAppView {
  phase: ViewPhase;
  layout: ViewLayout;
  frameRef: React.RefObject<HTMLIFrameElement | null>;
  /** An error of a later step (close, context) while the view stays. */
  error: string | null;
  open: (source: McpAppSource) => Promise<McpAppOpened | null>;
  close: (reason: string) => Promise<void>;
  reload: () => void;
  /** The user's choice of display mode: applied here, and told to the app. */
  setMode: (mode: McpAppDisplayMode) => void;
}

/** After `mcp_app_close` answered, how long the frame waits for the engine's `closed`. */
const CLOSED_GRACE_MS = 2000;

export function useMcpAppView(serverId: string, resourceUri: string): McpAppView {
  const [phase, setPhase] = useState<ViewPhase>({ kind: "idle" });
  const [layout, setLayout] = useState<ViewLayout>(INITIAL_LAYOUT);
  const [error, setError] = useState<string | null>(null);
  const frameRef = useRef<HTMLIFrameElement | null>(null);
  // The view open now (for unmount and for stale opens), and the source it was opened with.
  const live = useRef<{ view: number; source: McpAppSource } | null>(null);
  const generation = useRef(0);
  const mounted = useRef(true);

  const onOut = useCallback((view: number, out: McpAppOut) => {
    // Messages of a view that is no longer this panel's are dropped.
    if (live.current?.view !== view) return;
    if (out.kind === "post") {
      postToFrame(frameRef.current?.contentWindow, out.text);
      return;
    }
    setLayout((prev) => applyOut(prev, out, () => undefined));
    if (out.kind === "closed") {
      live.current = null;
      setPhase({ kind: "closed", reason: out.reason });
    }
  }, []);

  const open = useCallback(
    async (source: McpAppSource) => {
      const mine = ++generation.current;
      const previous = live.current;
      live.current = null;
      if (previous) await mcpAppsIpc.close(previous.view, "replaced").catch(() => undefined);
      setPhase({ kind: "opening" });
      setLayout(INITIAL_LAYOUT);
      setError(null);
      // Messages may come before `open` answers (the channel is faster): held until it does.
      let view: number | null = null;
      const early: McpAppOut[] = [];
      try {
        const opened = await mcpAppsIpc.open(serverId, resourceUri, source, (out) => {
          if (view === null) early.push(out);
          else onOut(view, out);
        });
        if (mine !== generation.current || !mounted.current) {
          void mcpAppsIpc.close(opened.view, "replaced").catch(() => undefined);
          return null;
        }
        view = opened.view;
        live.current = { view, source };
        setPhase({ kind: "open", opened });
        for (const out of early) onOut(view, out);
        return opened;
      } catch (e) {
        if (mine === generation.current) setPhase({ kind: "failed", error: errorMessage(e) });
        return null;
      }
    },
    [serverId, resourceUri, onOut],
  );

  const close = useCallback(async (reason: string) => {
    const current = live.current;
    if (!current) return;
    setPhase((p) => (p.kind === "open" ? { kind: "closing", opened: p.opened } : p));
    try {
      await mcpAppsIpc.close(current.view, reason);
    } catch (e) {
      setError(errorMessage(e));
    }
    // The engine's `closed` removes the frame; if it never comes, the frame goes anyway.
    window.setTimeout(() => {
      if (live.current?.view !== current.view) return;
      live.current = null;
      if (mounted.current) setPhase({ kind: "closed", reason });
    }, CLOSED_GRACE_MS);
  }, []);

  const reload = useCallback(() => {
    const current = live.current;
    if (current) void open(current.source);
  }, [open]);

  const setMode = useCallback((mode: McpAppDisplayMode) => {
    const current = live.current;
    if (!current) return;
    setLayout((prev) => (prev.mode === mode ? prev : { ...prev, mode }));
    const full = mode === "fullscreen";
    const change = {
      theme: null,
      display_mode: mode,
      width: full ? window.innerWidth : null,
      height: full ? window.innerHeight : null,
    };
    void mcpAppsIpc.context(current.view, change).catch((e: unknown) => setError(errorMessage(e)));
  }, []);

  // What the app's host context says about its container follows the page: the theme (the
  // setting, or the desktop's for "system", which only the page can resolve) and, inline,
  // the frame's width. Sent once the view is open and again on each change (coalesced).
  const modeRef = useRef(layout.mode);
  useEffect(() => {
    modeRef.current = layout.mode;
  }, [layout.mode]);
  const openView = phase.kind === "open" ? phase.opened.view : null;
  useEffect(() => {
    if (openView === null) return;
    const root = document.documentElement;
    let told: { theme: string | null; width: number | null } = { theme: null, width: null };
    let timer: number | undefined;
    const tell = () => {
      const theme = root.dataset.theme === "dark" ? "dark" : "light";
      const frame = frameRef.current;
      const width =
        modeRef.current === "inline" && frame && frame.clientWidth > 0 ? Math.round(frame.clientWidth) : null;
      const change = {
        theme: theme !== told.theme ? theme : null,
        display_mode: null,
        width: width !== null && width !== told.width ? width : null,
        height: null,
      };
      if (change.theme === null && change.width === null) return;
      told = { theme, width: width ?? told.width };
      void mcpAppsIpc.context(openView, change).catch(() => undefined);
    };
    const soon = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(tell, 150);
    };
    tell();
    const themes = new MutationObserver(soon);
    themes.observe(root, { attributes: true, attributeFilter: ["data-theme"] });
    const sizes = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(soon);
    if (frameRef.current) sizes?.observe(frameRef.current);
    return () => {
      window.clearTimeout(timer);
      themes.disconnect();
      sizes?.disconnect();
    };
  }, [openView]);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      generation.current += 1;
      const current = live.current;
      live.current = null;
      if (current) void mcpAppsIpc.close(current.view, "the panel was closed").catch(() => undefined);
    };
  }, []);

  return { phase, layout, frameRef, error, open, close, reload, setMode };
}
