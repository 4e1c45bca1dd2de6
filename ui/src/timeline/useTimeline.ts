// Reads the timeline (and the latency report) of one server or several, again whenever their
// traffic grows (at most one read in flight, the next one right after), and every second while
// a call may still be running so an unanswered bar grows with the clock.
import { useCallback, useEffect, useRef, useState } from "react";
import type { LatencyReport } from "../bindings/LatencyReport";
import type { Timeline } from "../bindings/Timeline";
import { problemText } from "../i18n/problem";
import { errorMessage, timelineIpc } from "../ipc";
import { useTraffic } from "../state/traffic";

/** One server's row group on the timeline. */
export interface Lane {
  serverId: string;
  timeline: Timeline | null;
  latency: LatencyReport | null;
  error: string | null;
}

/** Spans asked of the engine per server: plenty for a screen; older ones are counted. */
export const SPAN_BUDGET = 2_000;
/** The latency report scans the whole session: read it at most this often while live. */
const LATENCY_EVERY_MS = 2_000;

export function useTimelineLanes(serverIds: readonly string[], live: boolean): { lanes: Lane[]; loaded: boolean } {
  const key = serverIds.join("\n");
  const version = useTraffic((s) => serverIds.reduce((n, id) => n + (s[id]?.summary.listed_to ?? 0), 0));
  const [state, setState] = useState<{ key: string; lanes: Lane[] }>({ key: "", lanes: [] });
  const busy = useRef(false);
  const again = useRef(false);
  const latencyAt = useRef(0);
  const latencyKey = useRef<string | null>(null);
  const latest = useRef<Lane[]>([]);

  const read = useCallback(async () => {
    if (busy.current) {
      again.current = true;
      return;
    }
    busy.current = true;
    const ids = key === "" ? [] : key.split("\n");
    try {
      const window = { from_wall_us: null, to_wall_us: null, max_spans: SPAN_BUDGET };
      // A new set of servers reads latency at once; then at most every 2 s while live.
      const withLatency = !live || latencyKey.current !== key || Date.now() - latencyAt.current >= LATENCY_EVERY_MS;
      const [timelines, latencies] = await Promise.all([
        timelineIpc.timelineAll(ids, window),
        withLatency ? timelineIpc.latencyAll(ids) : Promise.resolve(null),
      ]);
      if (withLatency) {
        latencyAt.current = Date.now();
        latencyKey.current = key;
      }
      const lanes = timelines.map((t, i): Lane => {
        const previous = latest.current.find((l) => l.serverId === t.server_id);
        const latency = latencies ? (latencies[i]?.latency ?? null) : (previous?.latency ?? null);
        return { serverId: t.server_id, timeline: t.timeline, latency, error: t.error === null ? null : problemText(t.error) };
      });
      latest.current = lanes;
      setState({ key, lanes });
    } catch (e) {
      const lanes = ids.map((serverId): Lane => ({ serverId, timeline: null, latency: null, error: errorMessage(e) }));
      latest.current = lanes;
      setState({ key, lanes });
    } finally {
      busy.current = false;
      if (again.current) {
        again.current = false;
        setTimeout(() => void read(), 250);
      }
    }
  }, [key, live]);

  useEffect(() => {
    void read();
  }, [read, version]);

  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => void read(), 1_000);
    return () => clearInterval(timer);
  }, [live, read]);

  return { lanes: state.key === key ? state.lanes : [], loaded: state.key === key };
}
