import { Activity } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { formatLatency } from "../format";
import { errorMessage, LOG_LEVELS, serverIpc, type LogLevel } from "../ipc";
import "../styles/saved.css";
import type { ServerState } from "../state/connections";

/** Ping with its round trip, and the server's log level (when it declares `logging`). */
export function ServerUtilities({ server }: { server: ServerState }) {
  const { t } = useTranslation("overview");
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
  const logging = server.identity?.offers.logging ?? false;

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
      <h3>{t("utilities.title")}</h3>
      <div className="server-utilities">
        <span className="server-utility">
          <button
            type="button"
            className="button"
            data-testid="ping-button"
            onClick={() => void doPing()}
            disabled={!ready || ping.busy || modern}
            title={modern ? t("utilities.pingRemovedTitle") : undefined}
          >
            <Activity size={14} aria-hidden />
            {ping.busy ? t("utilities.pinging") : t("utilities.ping")}
          </button>
          {ping.us !== null && (
            <span data-testid="ping-latency" className="mono">
              {t("utilities.roundTrip", { latency: formatLatency(ping.us) })}
            </span>
          )}
          {modern && (
            <span className="muted" data-testid="ping-removed">
              {t("utilities.pingRemoved")}
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
            {t("utilities.logLevel")}
            <select
              data-testid="log-level-select"
              value={level.value}
              disabled={!ready || level.busy}
              onChange={(e) => void changeLevel(e.target.value as LogLevel)}
            >
              <option value="" disabled>
                {t("utilities.serverDefault")}
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
                  ? t("utilities.levelPerRequest", { level: level.value })
                  : t("utilities.levelSet", { level: level.value })}
              </span>
            )}
            {level.error && <span className="inline-error">{level.error}</span>}
          </label>
        ) : (
          <span className="muted">{t("utilities.noLogging")}</span>
        )}
      </div>
    </section>
  );
}
