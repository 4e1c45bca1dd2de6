import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import type { HttpExchange } from "../bindings/HttpExchange";
import type { ServerTarget } from "../bindings/ServerTarget";
import { showFrame } from "../actions/view";
import { ConnectButton } from "../common/ConnectButton";
import { EmptyState } from "../common/EmptyState";
import { formatLatency, formatTime } from "../format";
import { statusClass, statusLabel, urlPath } from "./describe";
import { ExchangeDetail } from "./ExchangeDetail";
import type { NetworkLog } from "../state/networkLog";
import type { ServerState } from "../state/connections";
import { selectExchange, useServerTraffic, useTraffic } from "../state/traffic";
import { FollowedList } from "../common/FollowedList";

/** The tab lists at most this many of the newest exchanges (drawing only those in sight). */
const SHOWN = 20_000;
/** An exchange row's height (`.log-row`). */
const ROW_HEIGHT = 28;

function tail(log: NetworkLog, _version: number): HttpExchange[] {
  return log.exchanges.slice(-SHOWN);
}

/** The HTTP requests under the JSON-RPC, newest at the bottom, with one's detail beside them. */
export function NetworkTab({ server, target }: { server: ServerState; target: ServerTarget }) {
  const { t } = useTranslation("network");
  const { id } = server;
  const record = useServerTraffic(id);
  const log = record.network;
  // The log is appended in place: its version is what changes.
  const version = useTraffic((s) => s[id]?.network.version ?? 0);
  const shown = useMemo(() => tail(log, version), [log, version]);
  const total = log.exchanges.length;
  const selectedSeq = record.networkView.selectedSeq;
  const selected = selectedSeq === null ? undefined : log.get(selectedSeq);

  const stdio = target.transport === "stdio";
  const live = server.status.state === "ready" || server.status.state === "connecting";
  return (
    <div className="network">
      <div className="filter-bar">
        {!stdio && <span className="mono network-base" title={target.url}>{target.url}</span>}
        <span className="spacer" />
        <span className="count-text" data-testid="network-count">
          {t("count", { count: total })}
        </span>
      </div>
      {stdio && total === 0 ? (
        <EmptyState title={t("empty.stdioTitle")} testId="network-empty">
          {t("empty.stdio")}
        </EmptyState>
      ) : (
        <div className={`traffic-split${selected ? " with-detail" : ""}`}>
          <div className="network-list" role="grid" aria-rowcount={total}>
            <div className="log-row log-header network-row network-header" role="row">
              <span className="col-seq">#</span>
              <span className="col-time">{t("column.time")}</span>
              <span className="col-http-method">{t("column.method")}</span>
              <span className="col-status">{t("column.status")}</span>
              <span className="col-path">{t("column.path")}</span>
              <span className="col-duration">{t("column.duration")}</span>
            </div>
            <FollowedList
              className="network-scroll"
              items={shown}
              keyOf={(exchange) => exchange.seq}
              render={(exchange) => (
                <NetworkRow exchange={exchange} selected={exchange.seq === selectedSeq} onSelect={() => selectExchange(id, exchange.seq)} />
              )}
              estimate={ROW_HEIGHT}
              before={total > shown.length && <div className="console-hidden">{t("older", { count: total - shown.length })}</div>}
              empty={
                <EmptyState
                  title={t("empty.title")}
                  action={live ? undefined : <ConnectButton server={server} />}
                  testId="network-empty"
                >
                  {live ? t("empty.body") : t("empty.bodyConnect")}
                </EmptyState>
              }
            />
          </div>
          {selected && (
            <ExchangeDetail
              key={selected.seq}
              exchange={selected}
              onClose={() => selectExchange(id, null)}
              onShowFrame={(seq) => showFrame(id, seq)}
            />
          )}
        </div>
      )}
    </div>
  );
}

function NetworkRow({ exchange, selected, onSelect }: { exchange: HttpExchange; selected: boolean; onSelect: () => void }) {
  const { t } = useTranslation("network");
  const label = statusLabel(exchange);
  const cls = statusClass(exchange.status);
  return (
    <div
      className={`log-row network-row${selected ? " selected" : ""}${exchange.status === null ? " failed" : ""}`}
      role="row"
      aria-selected={selected}
      tabIndex={0}
      data-testid="network-row"
      data-seq={exchange.seq}
      data-method={exchange.method}
      data-status={label}
      onClick={onSelect}
      onKeyDown={(e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          onSelect();
        }
      }}
      title={exchange.url}
    >
      <span className="col-seq">{exchange.seq}</span>
      <span className="col-time">{formatTime(exchange.wall_us)}</span>
      <span className="col-http-method">{exchange.method}</span>
      <span className={`col-status http-status status-${cls}`} title={exchange.error ?? undefined}>
        {exchange.status === null
          ? exchange.error
            ? t("failedWith", { error: exchange.error })
            : t("failed")
          : label}
      </span>
      <span className="col-path">{urlPath(exchange.url)}</span>
      <span className="col-duration">{formatLatency(exchange.duration_us)}</span>
    </div>
  );
}
