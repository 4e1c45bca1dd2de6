// Traffic: each server's JSON-RPC frames and the HTTP exchanges under them, with where the user
// is in the Traffic and Network tabs. The two logs are appended in place with a version number
// (traffic/log.ts, network/log.ts); they start afresh with each connection (seqs restart).
import type { Flag } from "../bindings/Flag";
import type { FrameRow } from "../bindings/FrameRow";
import type { HttpExchange } from "../bindings/HttpExchange";
import { NetworkLog } from "../network/log";
import type { DirectionFilter, StatusFilter } from "../traffic/filter";
import { TrafficLog } from "../traffic/log";
import { onSessionStart } from "./connections";
import { Notifier, useNotifier, withEntry } from "./notifier";

export interface TrafficView {
  text: string;
  direction: DirectionFilter;
  status: StatusFilter;
  follow: boolean;
  selectedSeq: number | null;
}

export interface ServerTraffic {
  traffic: TrafficLog;
  /** The HTTP requests under the JSON-RPC (HTTP transports only). */
  network: NetworkLog;
  trafficView: TrafficView;
  networkView: { selectedSeq: number | null };
  /** While the frames recorded before the UI subscribed are fetched (page by page). */
  catchUp?: CatchUp | null;
}

/** A catch-up in progress: how many earlier frames arrived so far, since when (ms since the epoch). */
export interface CatchUp {
  loaded: number;
  startedAt: number;
}

export type TrafficState = Record<string, ServerTraffic>;

const fresh = (): ServerTraffic => ({
  traffic: new TrafficLog(),
  network: new NetworkLog(),
  trafficView: { text: "", direction: "all", status: "all", follow: true, selectedSeq: null },
  networkView: { selectedSeq: null },
});

export const traffic = new Notifier<TrafficState>({});

export const useTraffic = <T>(selector: (state: TrafficState) => T): T => useNotifier(traffic, selector);

/** One server's traffic (made on first use, so a log always exists to append to). */
export function serverTraffic(id: string): ServerTraffic {
  const existing = traffic.getState()[id];
  if (existing) return existing;
  const made = fresh();
  traffic.updateSoon((state) => ({ ...state, [id]: made }));
  return made;
}

const EMPTY = fresh();
/** One server's traffic for a view (an empty one until the server has any). */
export const useServerTraffic = (id: string): ServerTraffic => useTraffic((s) => s[id] ?? EMPTY);

export function appendFrames(id: string, rows: FrameRow[]): void {
  serverTraffic(id).traffic.append(rows);
  traffic.changedSoon();
}

export function flagFrame(id: string, seq: number, flag: Flag): void {
  serverTraffic(id).traffic.flag(seq, flag);
  traffic.changedSoon();
}

export function appendExchanges(id: string, exchanges: HttpExchange[]): void {
  serverTraffic(id).network.append(exchanges);
  traffic.changedSoon();
}

/** The views hear on the next frame that a log grew in place (catching up). */
export const trafficChanged = (): void => traffic.changedSoon();

function update(id: string, change: (s: ServerTraffic) => ServerTraffic): void {
  traffic.update((state) => withEntry(state, id, fresh, change));
}

export function setTrafficView(id: string, change: Partial<TrafficView>): void {
  update(id, (s) => {
    const view = s.trafficView;
    const changed = (Object.keys(change) as Array<keyof TrafficView>).some((k) => change[k] !== view[k]);
    return changed ? { ...s, trafficView: { ...view, ...change } } : s;
  });
}

/** A catch-up's progress, or null when it ended (`only`: clear only if this one is still shown). */
export function setCatchUp(id: string, catchUp: CatchUp | null, only?: CatchUp): void {
  update(id, (s) => {
    if (only !== undefined && s.catchUp !== only) return s;
    return s.catchUp === catchUp ? s : { ...s, catchUp };
  });
}

export function selectExchange(id: string, seq: number | null): void {
  update(id, (s) => (s.networkView.selectedSeq === seq ? s : { ...s, networkView: { selectedSeq: seq } }));
}

// A new connection: a fresh traffic and HTTP record (seqs restart); the filter stays.
onSessionStart((id) => {
  traffic.updateSoon((state) =>
    withEntry(state, id, fresh, (s) => ({
      ...s,
      traffic: new TrafficLog(),
      network: new NetworkLog(),
      trafficView: { ...s.trafficView, selectedSeq: null },
      networkView: { selectedSeq: null },
      catchUp: null,
    })),
  );
});

/** For tests: forget everything. */
export function resetTraffic(): void {
  traffic.update(() => ({}));
}
