// Traffic: for each server, how far its record goes (the engine's summary, from `traffic_changed`
// events), the HTTP exchanges under the JSON-RPC, and where the user is in the Traffic and
// Network tabs. The rows themselves stay in the engine: the list asks for those it shows
// (traffic/window.ts). A new connection starts afresh (seqs restart).
import type { HttpExchange } from "../bindings/HttpExchange";
import type { TrafficSummary } from "../bindings/TrafficSummary";
import { NetworkLog } from "./networkLog";
import { NO_FILTER, type ListFilter } from "./trafficFilter";
import { onSessionStart } from "./connections";
import { Notifier, useNotifier, withEntry } from "./notifier";

export interface TrafficView extends ListFilter {
  follow: boolean;
  selectedSeq: number | null;
}

export interface ServerTraffic {
  /** How far the record goes and the checks' counts; changes whenever the record does. */
  summary: TrafficSummary;
  /** The HTTP requests under the JSON-RPC (HTTP transports only). */
  network: NetworkLog;
  trafficView: TrafficView;
  networkView: { selectedSeq: number | null };
}

export type TrafficState = Record<string, ServerTraffic>;

export const NO_SUMMARY: TrafficSummary = { listed_to: 0, violations: 0, not_checked: 0 };

const fresh = (): ServerTraffic => ({
  summary: NO_SUMMARY,
  network: new NetworkLog(),
  trafficView: { ...NO_FILTER, follow: true, selectedSeq: null },
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

function update(id: string, change: (s: ServerTraffic) => ServerTraffic): void {
  traffic.update((state) => withEntry(state, id, fresh, change));
}

/** The record of `id` changed: its new summary (a newer one replaces an older one). */
export function setSummary(id: string, summary: TrafficSummary): void {
  traffic.updateSoon((state) =>
    withEntry(state, id, fresh, (s) => {
      const old = s.summary;
      const same =
        old.listed_to === summary.listed_to && old.violations === summary.violations && old.not_checked === summary.not_checked;
      return same ? s : { ...s, summary };
    }),
  );
}

export function appendExchanges(id: string, exchanges: HttpExchange[]): void {
  serverTraffic(id).network.append(exchanges);
  traffic.changedSoon();
}

/** The views hear on the next frame that a log grew in place (catching up). */
export const trafficChanged = (): void => traffic.changedSoon();

export function setTrafficView(id: string, change: Partial<TrafficView>): void {
  update(id, (s) => {
    const view = s.trafficView;
    const changed = (Object.keys(change) as Array<keyof TrafficView>).some((k) => change[k] !== view[k]);
    return changed ? { ...s, trafficView: { ...view, ...change } } : s;
  });
}

export function selectExchange(id: string, seq: number | null): void {
  update(id, (s) => (s.networkView.selectedSeq === seq ? s : { ...s, networkView: { selectedSeq: seq } }));
}

// A new connection: a fresh summary and HTTP record (seqs restart); the filter stays.
onSessionStart((id) => {
  traffic.updateSoon((state) =>
    withEntry(state, id, fresh, (s) => ({
      ...s,
      summary: NO_SUMMARY,
      network: new NetworkLog(),
      trafficView: { ...s.trafficView, selectedSeq: null },
      networkView: { selectedSeq: null },
    })),
  );
});

/** For tests: forget everything. */
export function resetTraffic(): void {
  traffic.update(() => ({}));
}
