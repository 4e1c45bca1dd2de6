import { Loader2, Play, RotateCw, Save, Square } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { ServerEntry } from "../bindings/ServerEntry";
import { connect, disconnect, reconnect } from "../actions/connections";
import { StatusDot } from "../common/StatusDot";
import { useNow } from "../common/useNow";
import { targetLine, transportLabel } from "../format";
import i18n from "../i18n";
import type { ServerState } from "../state/connections";
import { saveSession } from "../recordings/actions";
import { CompareButton } from "../diff/CompareDialog";

/** The status line: `Ready · protocol 2025-11-25 · stdio` (or `· HTTP`). */
export function statusText(server: ServerState, transport: string): string {
  const status = server.status;
  switch (status.state) {
    case "disconnected":
      return i18n.t("server:status.disconnected", { transport });
    case "connecting":
      return i18n.t("server:status.connecting", { transport });
    case "ready":
      return i18n.t("server:status.ready", { version: status.protocol_version, transport });
    case "failed":
      return i18n.t("server:status.failed", { transport });
  }
}

/** Name, status and the connect/disconnect/reconnect buttons of the selected server. */
export function ServerHeader({ entry, server }: { entry: ServerEntry; server: ServerState }) {
  const { t } = useTranslation(["server", "common", "recordings"]);
  const state = server.status.state;
  const busy = server.busy !== null;
  const live = state === "ready" || state === "connecting";
  return (
    <header className="server-header">
      <div className="server-header-title">
        <h1>{entry.name}</h1>
        <div className="server-header-status">
          {state === "connecting" ? (
            <Loader2 size={12} className="spin status-spinner" aria-hidden />
          ) : (
            <StatusDot state={state} />
          )}
          <span data-testid="status-text">
            {statusText(server, server.identity?.transport ?? transportLabel(entry.target))}
          </span>
          {state === "connecting" && <ConnectingFor since={server.connectingSince} />}
        </div>
        <div className="server-header-command mono" title={targetLine(entry.target)}>
          {targetLine(entry.target)}
        </div>
      </div>
      <div className="server-header-actions">
        <button
          type="button"
          className="button button-primary"
          data-testid="connect-button"
          disabled={busy || live}
          onClick={() => void connect(entry.id)}
        >
          <Play size={14} aria-hidden />
          {t("common:connect")}
        </button>
        <button
          type="button"
          className="button"
          data-testid="disconnect-button"
          disabled={busy || !live}
          onClick={() => void disconnect(entry.id)}
        >
          <Square size={14} aria-hidden />
          {t("common:disconnect")}
        </button>
        <button
          type="button"
          className="button"
          data-testid="reconnect-button"
          disabled={busy}
          onClick={() => void reconnect(entry.id)}
        >
          <RotateCw size={14} aria-hidden />
          {t("reconnect")}
        </button>
        <button
          type="button"
          className="button"
          data-testid="save-session-button"
          title={t("recordings:saveTitle")}
          disabled={server.session === 0 && state === "disconnected"}
          onClick={() => void saveSession(entry.id)}
        >
          <Save size={14} aria-hidden />
          {t("recordings:save")}
        </button>
        <CompareButton id={entry.id} />
      </div>
    </header>
  );
}

/** How long the connection attempt has been going on, in whole seconds, from the first one. */
function ConnectingFor({ since }: { since: number | undefined }) {
  const { t } = useTranslation(["server", "common"]);
  const now = useNow(since === undefined ? null : 250);
  if (since === undefined) return null;
  const seconds = Math.floor((now - since) / 1000);
  if (seconds < 1) return null;
  return (
    <span className="muted" data-testid="connecting-elapsed">
      {t("elapsed", { seconds })}
    </span>
  );
}
