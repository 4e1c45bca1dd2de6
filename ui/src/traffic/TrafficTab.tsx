import { Loader2 } from "lucide-react";
import { useCallback, useMemo, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ConnectButton } from "../common/ConnectButton";
import { EmptyState } from "../common/EmptyState";
import { FilteredView, isNoFilter, type RowsView, type TrafficFilter } from "./filter";
import { ExportMenu } from "./ExportMenu";
import { FrameDetailPane } from "./FrameDetailPane";
import type { TrafficLog } from "./log";
import { TrafficFilterBar } from "./TrafficFilterBar";
import { TrafficList } from "./TrafficList";
import type { ServerState } from "../state/connections";
import { setTrafficView, useServerTraffic, useTraffic } from "../state/traffic";

const views = new WeakMap<TrafficLog, FilteredView>();

/** The log's filtered rows; scans only rows added since the last call when nothing else changed. */
function filtered(log: TrafficLog, filter: TrafficFilter, _version: number): RowsView {
  const marks = { schemaViolations: log.schemaViolations, version: log.schemaVersion };
  let view = views.get(log);
  if (!view) {
    view = new FilteredView();
    views.set(log, view);
  }
  return view.update(log.rows, filter, marks);
}

/** Every frame on the wire, filterable, with the selected frame's detail beside it. */
export function TrafficTab({ server }: { server: ServerState }) {
  const { t } = useTranslation("traffic");
  const { id } = server;
  const record = useServerTraffic(id);
  const log = record.traffic;
  // The log is appended in place: its version is what changes.
  const version = useTraffic((s) => s[id]?.traffic.version ?? 0);
  const { text, direction, status, follow, selectedSeq } = record.trafficView;
  const filter = useMemo(() => ({ text, direction, status }), [text, direction, status]);
  const rows = useMemo(() => filtered(log, filter, version), [log, filter, version]);
  const catchUp = record.catchUp ?? null;

  const select = useCallback((seq: number) => setTrafficView(id, { selectedSeq: seq }), [id]);
  const setFollow = useCallback((on: boolean) => setTrafficView(id, { follow: on }), [id]);

  let empty: ReactNode = null;
  if (rows.count === 0 && rows.total === 0) {
    const live = server.status.state === "ready" || server.status.state === "connecting";
    empty = catchUp ? (
      <EmptyState testId="traffic-empty">
        <span className="busy-text">
          <Loader2 size={14} className="spin" aria-hidden />
          {t("empty.catchingUp")}
        </span>
      </EmptyState>
    ) : (
      <EmptyState title={t("empty.title")} action={live ? undefined : <ConnectButton server={server} />} testId="traffic-empty">
        {live ? t("empty.body") : t("empty.bodyConnect")}
      </EmptyState>
    );
  } else if (rows.count === 0) {
    empty = (
      <EmptyState
        title={t("empty.filteredTitle")}
        testId="traffic-empty"
        action={
          !isNoFilter(filter) && (
            <button
              type="button"
              className="button"
              data-testid="traffic-clear-filter"
              onClick={() => setTrafficView(id, { text: "", direction: "all", status: "all" })}
            >
              {t("empty.clearFilter")}
            </button>
          )
        }
      >
        {t("empty.filteredBody", { count: rows.total })}
      </EmptyState>
    );
  }

  return (
    <div className="traffic">
      <TrafficFilterBar
        serverId={id}
        view={record.trafficView}
        shown={rows.count}
        total={rows.total}
        catchUp={catchUp}
        newestSeq={log.lastSeq}
        violations={log.schemaViolations.size}
        notChecked={log.notChecked}
        actions={<ExportMenu serverId={id} rows={rows} />}
      />
      <div className={`traffic-split${selectedSeq !== null ? " with-detail" : ""}`}>
        <TrafficList
          view={rows}
          flags={log.flags}
          rounds={log.rounds}
          selectedSeq={selectedSeq}
          follow={follow}
          onSelect={select}
          onFollowChange={setFollow}
          empty={empty}
        />
        {selectedSeq !== null && (
          <FrameDetailPane
            key={selectedSeq}
            serverId={id}
            seq={selectedSeq}
            liveFlags={log.flags.get(selectedSeq)}
            onSelect={select}
            onClose={() => setTrafficView(id, { selectedSeq: null })}
          />
        )}
      </div>
      {selectedSeq === null && rows.count > 0 && (
        <div className="traffic-hint muted small" data-testid="frame-detail-hint">
          {t("detail.hint")}
        </div>
      )}
    </div>
  );
}
