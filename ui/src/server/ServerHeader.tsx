import { Play, RotateCw, Square } from "lucide-react";
import type { ServerEntry } from "../bindings/ServerEntry";
import { connect, disconnect, reconnect } from "../actions";
import { StatusDot } from "../common/StatusDot";
import { targetLine, transportLabel } from "../format";
import type { ServerState } from "../state/connections";

/** The status line: `Ready · protocol 2025-11-25 · stdio` (or `· HTTP`). */
export function statusText(server: ServerState, transport: string): string {
  const status = server.status;
  switch (status.state) {
    case "disconnected":
      return `Disconnected · ${transport}`;
    case "connecting":
      return `Connecting… · ${transport}`;
    case "ready":
      return `Ready · protocol ${status.protocol_version} · ${transport}`;
    case "failed":
      return `Failed · ${transport}`;
  }
}

/** Name, status and the connect/disconnect/reconnect buttons of the selected server. */
export function ServerHeader({ entry, server }: { entry: ServerEntry; server: ServerState }) {
  const state = server.status.state;
  const busy = server.busy !== null;
  const live = state === "ready" || state === "connecting";
  return (
    <header className="server-header">
      <div className="server-header-title">
        <h1>{entry.name}</h1>
        <div className="server-header-status">
          <StatusDot state={state} />
          <span data-testid="status-text">
            {statusText(server, server.identity?.transport ?? transportLabel(entry.target))}
          </span>
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
          Connect
        </button>
        <button
          type="button"
          className="button"
          data-testid="disconnect-button"
          disabled={busy || !live}
          onClick={() => void disconnect(entry.id)}
        >
          <Square size={14} aria-hidden />
          Disconnect
        </button>
        <button
          type="button"
          className="button"
          data-testid="reconnect-button"
          disabled={busy}
          onClick={() => void reconnect(entry.id)}
        >
          <RotateCw size={14} aria-hidden />
          Reconnect
        </button>
      </div>
    </header>
  );
}
