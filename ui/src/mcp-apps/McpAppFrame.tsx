// The app's frame: the server's HTML on its own opaque origin (the sandbox has no
// allow-same-origin), served by the engine at `src` with the CSP header the resource declared.
// No popups, top navigation, downloads or device permissions. Above it a bar says whose code
// this is, so an app cannot pass itself off as Periscope.
import { useLayoutEffect, type RefObject } from "react";
import { useTranslation } from "react-i18next";
import { mcpAppsIpc, type McpAppOpened } from "../ipc/mcpApps";
import { fromFrame, type ViewLayout } from "./relay";

/** The frame's height before the app says what it needs. */
export const DEFAULT_HEIGHT = 320;

interface Props {
  opened: McpAppOpened;
  serverName: string;
  layout: ViewLayout;
  frameRef: RefObject<HTMLIFrameElement | null>;
  /** The engine is tearing the view down: the frame stays until it says it is closed. */
  closing?: boolean;
}

export function McpAppFrame({ opened, serverName, layout, frameRef, closing }: Props) {
  const { t } = useTranslation("mcpApps");
  const view = opened.view;

  // The relay: only this frame's messages, as text, to the engine. A layout effect, so the
  // listener is there in the same task that puts the frame in the page: a passive effect may
  // run later, after the page's first message (its `ui/initialize`) was dispatched to nobody,
  // and the app then waits forever (seen under load: no tool input, no result).
  useLayoutEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const text = fromFrame(event, frameRef.current?.contentWindow);
      if (text !== null) void mcpAppsIpc.fromView(view, text).catch(() => undefined);
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [view, frameRef]);

  const fullscreen = layout.mode === "fullscreen";
  // Inline, the width is the panel's (what the host tells the app its container is) and the
  // height follows the app; fullscreen, the frame fills the window.
  const style = fullscreen ? undefined : { height: layout.height ?? DEFAULT_HEIGHT, width: "100%" };
  return (
    <div
      className={`mcp-app-box${opened.prefers_border ? " bordered" : ""}${fullscreen ? " fullscreen" : ""}`}
      data-testid="mcp-app-box"
      data-closing={closing || undefined}
    >
      <div className="mcp-app-boundary" data-testid="mcp-app-boundary">
        {t("frame.boundary", { server: serverName, title: opened.title })}
      </div>
      <iframe
        ref={frameRef}
        className="mcp-app-frame"
        data-testid="mcp-app-frame"
        data-view={view}
        title={t("frame.title", { title: opened.title, server: serverName })}
        src={opened.src}
        sandbox="allow-scripts allow-forms"
        allow=""
        referrerPolicy="no-referrer"
        style={style}
      />
    </div>
  );
}
