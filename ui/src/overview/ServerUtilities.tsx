import { Activity } from "lucide-react";
import { useState } from "react";
import { formatLatency } from "../format";
import { errorMessage, LOG_LEVELS, serverIpc, type LogLevel } from "../ipc";
import { isObject } from "../json";
import "../styles/saved.css";
import type { ServerState } from "../state/connections";

/** Ping with its round trip, and the server's log level (when it declares `logging`). */
export function ServerUtilities({ server }: { server: ServerState }) {
  const [ping, setPing] = useState<{ busy: boolean; us: number | null; error: string | null }>({ busy: false, us: null, error: null });
  const [level, setLevel] = useState<{ value: LogLevel | ""; busy: boolean; error: string | null; set: boolean }>({
    value: "",
    busy: false,
    error: null,
    set: false,
  });
  const ready = server.status.state === "ready";
  // 2026-07-28 removed ping and logging/setLevel: the level goes with each request instead.
  const modern = server.identity?.era === "modern";
  const logging = isObject(server.identity?.capabilities) && server.identity.capabilities.logging !== undefined;

  const doPing = async () => {
    setPing((p) => ({ ...p, busy: true, error: null }));
    try {
      setPing({ busy: false, us: await serverIpc.ping(server.id), error: null });
    } catch (error) {
      setPing({ busy: false, us: null, error: errorMessage(error) });
    }
  };
  const changeLevel = async (value: LogLevel) => {
    setLevel({ value, busy: true, error: null, set: false });
    try {
      await serverIpc.setLogLevel(server.id, value);
      setLevel({ value, busy: false, error: null, set: true });
    } catch (error) {
      setLevel({ value, busy: false, error: errorMessage(error), set: false });
    }
  };

  return (
    <section className="section">
      <h3>Utilities</h3>
      <div className="server-utilities">
        <span className="server-utility">
          <button
            type="button"
            className="button"
            data-testid="ping-button"
            onClick={() => void doPing()}
            disabled={!ready || ping.busy || modern}
            title={modern ? "2026-07-28 removed ping: there is no session to keep alive" : undefined}
          >
            <Activity size={14} aria-hidden />
            {ping.busy ? "Pinging…" : "Ping"}
          </button>
          {ping.us !== null && (
            <span data-testid="ping-latency" className="mono">
              {formatLatency(ping.us)} round trip
            </span>
          )}
          {modern && (
            <span className="muted" data-testid="ping-removed">
              Not in 2026-07-28: there is no session to keep alive.
            </span>
          )}
          {ping.error && (
            <span className="inline-error" data-testid="ping-error">
              {ping.error}
            </span>
          )}
        </span>
        {logging ? (
          <label className="server-utility">
            Log level
            <select
              data-testid="log-level-select"
              value={level.value}
              disabled={!ready || level.busy}
              onChange={(e) => void changeLevel(e.target.value as LogLevel)}
            >
              <option value="" disabled>
                (server default)
              </option>
              {LOG_LEVELS.map((l) => (
                <option key={l} value={l}>
                  {l}
                </option>
              ))}
            </select>
            {level.set && (
              <span className="muted" data-testid="log-level-set">
                {modern
                  ? `Every request from now on asks for ${level.value} and above (2026-07-28 has no logging/setLevel).`
                  : `The server sends ${level.value} and above.`}
              </span>
            )}
            {level.error && <span className="inline-error">{level.error}</span>}
          </label>
        ) : (
          <span className="muted">The server does not declare logging, so its log level cannot be set.</span>
        )}
      </div>
    </section>
  );
}
