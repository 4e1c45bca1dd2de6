import { useCallback, useMemo } from "react";
import { FilteredView, type RowsView, type TrafficFilter } from "./filter";
import { FrameDetailPane } from "./FrameDetailPane";
import type { TrafficLog } from "./log";
import { TrafficFilterBar } from "./TrafficFilterBar";
import { TrafficList } from "./TrafficList";
import type { ServerState } from "../state/connections";
import { setTrafficView, useServerTraffic, useTraffic } from "../state/traffic";

const views = new WeakMap<TrafficLog, FilteredView>();

/** The log's filtered rows; scans only rows added since the last call when nothing else changed. */
function filtered(log: TrafficLog, filter: TrafficFilter, _version: number): RowsView {
  let view = views.get(log);
  if (!view) {
    view = new FilteredView();
    views.set(log, view);
  }
  return view.update(log.rows, filter);
}

/** Every frame on the wire, filterable, with the selected frame's detail beside it. */
export function TrafficTab({ server }: { server: ServerState }) {
  const { id } = server;
  const record = useServerTraffic(id);
  const log = record.traffic;
  // The log is appended in place: its version is what changes.
  const version = useTraffic((s) => s[id]?.traffic.version ?? 0);
  const { text, direction, follow, selectedSeq } = record.trafficView;
  const filter = useMemo(() => ({ text, direction }), [text, direction]);
  const rows = useMemo(() => filtered(log, filter, version), [log, filter, version]);

  const select = useCallback((seq: number) => setTrafficView(id, { selectedSeq: seq }), [id]);
  const setFollow = useCallback((on: boolean) => setTrafficView(id, { follow: on }), [id]);

  return (
    <div className="traffic">
      <TrafficFilterBar serverId={id} view={record.trafficView} shown={rows.count} total={rows.total} />
      <div className={`traffic-split${selectedSeq !== null ? " with-detail" : ""}`}>
        <TrafficList
          view={rows}
          flags={log.flags}
          rounds={log.rounds}
          selectedSeq={selectedSeq}
          follow={follow}
          onSelect={select}
          onFollowChange={setFollow}
        />
        {selectedSeq !== null && (
          <FrameDetailPane
            key={selectedSeq}
            serverId={id}
            seq={selectedSeq}
            onSelect={select}
            onClose={() => setTrafficView(id, { selectedSeq: null })}
          />
        )}
      </div>
    </div>
  );
}
