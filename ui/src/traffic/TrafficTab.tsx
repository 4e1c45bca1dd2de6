import { useCallback, useMemo, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ConnectButton } from "../common/ConnectButton";
import { EmptyState } from "../common/EmptyState";
import { ipc } from "../ipc";
import { NO_FILTER } from "../state/trafficFilter";
import { isNoFilter, toQuery } from "./filter";
import { ExportMenu } from "./ExportMenu";
import { FrameDetailPane } from "./FrameDetailPane";
import { TrafficFilterBar } from "./TrafficFilterBar";
import { TrafficList } from "./TrafficList";
import { useTrafficWindow } from "./useTrafficWindow";
import type { ServerState } from "../state/connections";
import { setTrafficView, useServerTraffic } from "../state/traffic";

/** Every frame on the wire, filterable, with the selected frame's detail beside it. */
export function TrafficTab({ server }: { server: ServerState }) {
  const { t } = useTranslation("traffic");
  const { id } = server;
  const record = useServerTraffic(id);
  const view = record.trafficView;
  const { text, direction, channel, kind, method, status, fromUs, toUs, follow, selectedSeq } = view;
  const query = useMemo(
    () => toQuery({ text, direction, channel, kind, method, status, fromUs, toUs }),
    [text, direction, channel, kind, method, status, fromUs, toUs],
  );
  const summary = record.summary;
  const { window, counts, error } = useTrafficWindow(id, query, summary.listed_to, server.session, follow);

  const select = useCallback((seq: number) => setTrafficView(id, { selectedSeq: seq }), [id]);
  // From the detail pane (its request or response, a round): the list stops following to show it.
  const jump = useCallback((seq: number) => setTrafficView(id, { selectedSeq: seq, follow: false }), [id]);
  const setFollow = useCallback((on: boolean) => setTrafficView(id, { follow: on }), [id]);
  const locate = useCallback((seq: number) => ipc.trafficPosition(id, seq, query), [id, query]);

  let empty: ReactNode = null;
  if (counts.shown === 0 && counts.total === 0) {
    const live = server.status.state === "ready" || server.status.state === "connecting";
    empty = (
      <EmptyState title={t("empty.title")} action={live ? undefined : <ConnectButton server={server} />} testId="traffic-empty">
        {live ? t("empty.body") : t("empty.bodyConnect")}
      </EmptyState>
    );
  } else if (counts.shown === 0) {
    const filtered = !isNoFilter(view);
    empty = (
      <EmptyState
        title={t("empty.filteredTitle")}
        testId="traffic-empty"
        action={
          filtered && (
            <button
              type="button"
              className="button"
              data-testid="traffic-clear-filter"
              onClick={() => setTrafficView(id, { ...NO_FILTER })}
            >
              {t("empty.clearFilter")}
            </button>
          )
        }
      >
        {t("empty.filteredBody", { count: counts.total })}
      </EmptyState>
    );
  }

  return (
    <div className="traffic">
      <TrafficFilterBar
        serverId={id}
        view={view}
        shown={counts.shown}
        total={counts.total}
        violations={summary.violations}
        notChecked={summary.not_checked}
        error={error}
        actions={<ExportMenu serverId={id} query={query} shown={counts.shown} />}
      />
      <div className={`traffic-split${selectedSeq !== null ? " with-detail" : ""}`}>
        <TrafficList
          window={window}
          count={counts.shown}
          selectedSeq={selectedSeq}
          follow={follow}
          onSelect={select}
          onFollowChange={setFollow}
          locate={locate}
          empty={counts.counted ? empty : null}
        />
        {selectedSeq !== null && (
          <FrameDetailPane
            key={selectedSeq}
            serverId={id}
            seq={selectedSeq}
            refresh={summary.violations + summary.not_checked}
            onSelect={jump}
            onClose={() => setTrafficView(id, { selectedSeq: null })}
          />
        )}
      </div>
      {selectedSeq === null && counts.shown > 0 && (
        <div className="traffic-hint muted small" data-testid="frame-detail-hint">
          {t("detail.hint")}
        </div>
      )}
    </div>
  );
}
