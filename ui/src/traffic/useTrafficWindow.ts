// The Traffic list's data: how many rows the filter keeps (and how many frames there are in
// all), and a RowWindow that fetches the rows in sight. Counted again whenever the record
// changes (a `traffic_changed` event) or the filter does, one query at a time.
import { useEffect, useMemo, useReducer, useRef, useState } from "react";
import type { TrafficFilter } from "../bindings/TrafficFilter";
import { errorMessage, ipc } from "../ipc";
import { ALL_FRAMES, queryKey } from "./filter";
import { OneAtATime, PAGE, RowWindow, TAIL } from "./window";

export interface TrafficCounts {
  /** Rows the filter keeps. */
  shown: number;
  /** Frames in all. */
  total: number;
  /** Whether the counts are of the current filter yet. */
  counted: boolean;
}

export interface TrafficWindowState {
  window: RowWindow;
  counts: TrafficCounts;
  /** Why the last query failed, if it did. */
  error: string | null;
}

/**
 * `listedTo` is the summary's: it changes when the record does, and 0 says there is nothing
 * to ask for (no record yet). `session` changes with each connection (a new record: rows held
 * of the old one go). `follow`: the list shows the newest rows, so each count comes with them
 * (one question, one moment: in a flood the end moves on between two).
 */
export function useTrafficWindow(
  serverId: string,
  query: TrafficFilter,
  listedTo: number,
  session: number,
  follow = false,
): TrafficWindowState {
  const key = queryKey(query);
  const [, rendered] = useReducer((n: number) => n + 1, 0);
  const [error, setError] = useState<string | null>(null);
  const [counts, setCounts] = useState<TrafficCounts & { key: string }>({ shown: 0, total: 0, counted: false, key: "" });
  // The key stands for the query (a new query object with the same fields is the same list).
  const window = useMemo(() => {
    const q = JSON.parse(key) as TrafficFilter;
    return new RowWindow(
      (offset, limit, count) => ipc.trafficWindow(serverId, q, offset, limit, count),
      rendered,
      (e) => setError(errorMessage(e)),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new session is a new record
  }, [serverId, key, session]);
  useEffect(() => () => window.dispose(), [window]);

  const counting = useRef(new OneAtATime());
  // Every frame's count changes only with the record: a new filter reuses it. The record is
  // the server's (the tab is the same component when another server is shown): keyed by it too.
  const totalAt = useRef<{ serverId: string; listedTo: number; session: number; total: number } | null>(null);
  useEffect(() => {
    if (listedTo === 0) return; // nothing recorded yet: nothing to ask
    const q = JSON.parse(key) as TrafficFilter;
    counting.current.run(async () => {
      try {
        const unfiltered = key === queryKey(ALL_FRAMES);
        const known = totalAt.current;
        const cached =
          known !== null && known.serverId === serverId && known.listedTo === listedTo && known.session === session
            ? known.total
            : null;
        const [kept, total] = await Promise.all([
          follow ? ipc.trafficTail(serverId, q, TAIL, PAGE) : ipc.trafficCount(serverId, q),
          unfiltered || cached !== null ? cached : ipc.trafficCount(serverId, ALL_FRAMES),
        ]);
        const shown = typeof kept === "number" ? kept : kept.count;
        const all = unfiltered ? shown : (total ?? shown);
        totalAt.current = { serverId, listedTo, session, total: all };
        if (typeof kept === "number") window.changed(shown);
        else window.changedTo(kept.count, kept.from, kept.rows);
        setCounts({ shown, total: all, counted: true, key });
        setError(null);
      } catch (e) {
        setError(errorMessage(e));
      }
    });
  }, [serverId, key, window, listedTo, session, follow]);

  if (listedTo === 0) return { window, counts: { shown: 0, total: 0, counted: true }, error };
  const current = counts.key === key;
  return {
    window,
    counts: { shown: current ? counts.shown : 0, total: counts.total, counted: current && counts.counted },
    error,
  };
}
