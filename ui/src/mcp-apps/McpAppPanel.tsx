// An app view with its controls: what it is (title, resource, the CSP it runs under, with a
// warning when it may reach external origins), Fullscreen/Inline, Reload, Close, and the frame.
// `ToolCallApp` is the panel under a tool's result: opened at each Call with the call's
// arguments, then given the call's result (or told it was cancelled).
import { AlertTriangle, Maximize2, Minimize2, RotateCw, X } from "lucide-react";
import { useCallback, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { ErrorBox } from "../common/ErrorBox";
import { mcpAppsIpc, type McpAppOpened } from "../ipc/mcpApps";
import type { RequestState } from "../state/calls";
import type { ToolResultView } from "../bindings/ToolResultView";
import { useConnections } from "../state/connections";
import type { JsonObject } from "../ipc";
import { FullscreenHost } from "./FullscreenHost";
import { McpAppFrame } from "./McpAppFrame";
import { useMcpAppView, type McpAppView } from "./useMcpAppView";
import "../styles/mcpApps.css";

// Reasons told to the app (in its teardown and cancellation notifications) and recorded in
// Traffic: protocol text, not UI text.
const CLOSED_BY_USER = "the user closed the app";
const CANCELLED_BY_USER = "the user cancelled the call";

/** The server's name as the catalog has it (the boundary bar names it). */
export function useServerName(serverId: string): string {
  return useConnections((s) => s.catalog.find((e) => e.id === serverId)?.name ?? serverId);
}

/** The CSP the frame runs under, and what was declared but not kept. */
export function CspLine({ opened }: { opened: McpAppOpened }) {
  const { t } = useTranslation("mcpApps");
  const { external, dropped, header } = opened.csp;
  return (
    <div className="mcp-app-csp" data-testid="mcp-app-csp" data-external={external.length}>
      <div className="mcp-app-csp-summary">
        {external.length === 0 ? t("csp.noNetwork") : t("csp.external", { origins: external.join(", ") })}
      </div>
      {external.length > 0 && (
        <div className="warning-box" role="alert" data-testid="mcp-app-csp-warning">
          <AlertTriangle size={14} aria-hidden />
          {t("csp.externalWarning", { count: external.length })}
        </div>
      )}
      {dropped.length > 0 && (
        <ul className="mcp-app-dropped" data-testid="mcp-app-csp-dropped">
          {dropped.map((d) => (
            <li key={d}>{t("csp.dropped", { what: d })}</li>
          ))}
        </ul>
      )}
      <details>
        <summary>{t("csp.header")}</summary>
        <code className="mono small">{header}</code>
      </details>
    </div>
  );
}

interface PanelProps {
  serverId: string;
  resourceUri: string;
  view: McpAppView;
}

/** The controls and the frame of one view. */
export function McpAppPanel({ serverId, resourceUri, view }: PanelProps) {
  const { t } = useTranslation("mcpApps");
  const serverName = useServerName(serverId);
  const { phase, layout, setMode } = view;
  const toInline = useCallback(() => setMode("inline"), [setMode]);
  const opened = phase.kind === "open" || phase.kind === "closing" ? phase.opened : null;
  const fullscreen = opened !== null && layout.mode === "fullscreen";
  return (
    <section className="mcp-app-panel section" data-testid="mcp-app-panel" data-phase={phase.kind} aria-label={t("panel.label")}>
      <FullscreenHost fullscreen={fullscreen} onExit={toInline}>
        <header className="mcp-app-header">
          <h3>{opened ? opened.title : t("panel.title")}</h3>
          <span className="mono small muted">{resourceUri}</span>
          <span className="spacer" />
          {opened && (
            <>
              {fullscreen ? (
                <button type="button" className="button" data-testid="mcp-app-inline" onClick={toInline}>
                  <Minimize2 size={14} aria-hidden />
                  {t("panel.inline")}
                </button>
              ) : (
                <button type="button" className="button" data-testid="mcp-app-fullscreen" onClick={() => setMode("fullscreen")}>
                  <Maximize2 size={14} aria-hidden />
                  {t("panel.fullscreen")}
                </button>
              )}
              <button type="button" className="button" data-testid="mcp-app-reload" onClick={view.reload}>
                <RotateCw size={14} aria-hidden />
                {t("panel.reload")}
              </button>
              <button
                type="button"
                className="button"
                data-testid="mcp-app-close"
                disabled={phase.kind === "closing"}
                onClick={() => void view.close(CLOSED_BY_USER)}
              >
                <X size={14} aria-hidden />
                {t("panel.close")}
              </button>
            </>
          )}
        </header>
        {phase.kind === "opening" && <p className="muted">{t("panel.opening")}</p>}
        {phase.kind === "failed" && <ErrorBox title={t("panel.openFailed")} message={phase.error} testId="mcp-app-error" />}
        {phase.kind === "closed" && (
          <p className="muted" data-testid="mcp-app-closed">
            {t("panel.closed", { reason: phase.reason })}
          </p>
        )}
        {view.error && <ErrorBox message={view.error} />}
        {opened && (
          <>
            <CspLine opened={opened} />
            {opened.problems.length > 0 && (
              <ul className="mcp-app-problems" data-testid="mcp-app-problems">
                {opened.problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            )}
            <McpAppFrame
              opened={opened}
              serverName={serverName}
              layout={layout}
              frameRef={view.frameRef}
              closing={phase.kind === "closing"}
            />
          </>
        )}
      </FullscreenHost>
    </section>
  );
}

/** One Call of a tool that links to an app: its arguments, and the call's state before it. */
export interface AppRun {
  id: string;
  args: JsonObject;
  /** The tool's call state when Call was clicked: a later one is this run's. */
  before: RequestState<ToolResultView> | undefined;
}

interface ToolCallProps {
  serverId: string;
  tool: string;
  resourceUri: string;
  run: AppRun;
  call: RequestState<ToolResultView> | undefined;
  /** The user cancelled the call. */
  cancelled: boolean;
}

/** The app panel under a tool's result: one view per Call, fed the call's outcome once. */
export function ToolCallApp({ serverId, tool, resourceUri, run, call, cancelled }: ToolCallProps) {
  const view = useMcpAppView(serverId, resourceUri);
  const { open } = view;
  // Delivered per view: a Reload opens a new view, which gets the outcome again.
  const delivered = useRef<number | null>(null);

  useEffect(() => {
    void open({ kind: "tool_call", tool, arguments: run.args });
  }, [open, tool, run]);

  // The call's outcome goes to the view once, when both are there (either may come first).
  const viewId = view.phase.kind === "open" ? view.phase.opened.view : null;
  useEffect(() => {
    if (viewId === null || delivered.current === viewId) return;
    if (!call || call === run.before || call.status === "running") return;
    delivered.current = viewId;
    const send =
      call.status === "done" && call.result !== null
        ? mcpAppsIpc.toolResult(viewId, call.result.raw)
        : mcpAppsIpc.toolCancelled(viewId, cancelled ? CANCELLED_BY_USER : (call.error ?? ""));
    void send.catch(() => undefined);
  }, [viewId, run, call, cancelled]);

  return <McpAppPanel serverId={serverId} resourceUri={resourceUri} view={view} />;
}
