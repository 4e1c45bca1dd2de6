import { Play, RotateCw, Square } from "lucide-react";
import type { ServerEntry } from "../bindings/ServerEntry";
import { connect, disconnect, reconnect } from "../actions";
import { StatusDot } from "../common/StatusDot";
import { commandLine } from "../format";
import type { ServerState } from "../store";

/** The status line: `Ready · 2025-11-25 · stdio`. */
export function statusText(server: ServerState): string {
  const status = server.status;
  switch (status.state) {
    case "disconnected":
      return "Disconnected · stdio";
    case "connecting":
      return "Connecting… · stdio";
    case "ready":
      return `Ready · protocol ${status.protocol_version} · stdio`;
    case "failed":
      return "Failed · stdio";
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
          <span data-testid="status-text">{statusText(server)}</span>
        </div>
        <div className="server-header-command mono" title={commandLine(entry.target)}>
          {commandLine(entry.target)}
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
