// The choices of the Traffic list's filter bar, and the engine filter its fields become (the
// fields themselves are the traffic view's state: state/trafficFilter.ts). The filtering
// itself runs in Rust (one function, over the store or memory): nothing here looks at a row.
import type { EntryKind } from "../bindings/EntryKind";
import type { TrafficFilter } from "../bindings/TrafficFilter";
import { NO_FILTER, type KindFilter, type ListFilter, type StatusFilter } from "../state/trafficFilter";

export const KIND_FILTERS: readonly KindFilter[] = [
  "frames",
  "request",
  "response",
  "notification",
  "error_response",
  "batch",
  "malformed",
  "http_exchange",
  "stderr",
  "everything",
];

export const STATUS_FILTERS: readonly StatusFilter[] = [
  "all",
  "error",
  "malformed",
  "late",
  "unknown_id",
  "schema_violation",
  "flagged",
];

const FRAME_KINDS: EntryKind[] = ["request", "notification", "response", "error_response", "batch", "malformed"];

/** The engine's filter for the bar's fields. */
export function toQuery(filter: ListFilter): TrafficFilter {
  const text = filter.text.trim();
  const method = filter.method.trim();
  return {
    direction: filter.direction === "all" ? null : filter.direction,
    channel: filter.channel === "all" ? null : filter.channel,
    kinds: filter.kind === "frames" ? FRAME_KINDS : filter.kind === "everything" ? [] : [filter.kind],
    method: method === "" ? null : method,
    statuses: filter.status === "all" ? [] : [filter.status],
    from_wall_us: filter.fromUs,
    to_wall_us: filter.toUs,
    text: text === "" ? null : text,
  };
}

/** The query of the unfiltered list (every frame): what "N of M" counts M in. */
export const ALL_FRAMES: TrafficFilter = toQuery(NO_FILTER);

/** A stable key for a query (what a cached window belongs to). */
export const queryKey = (query: TrafficFilter): string => JSON.stringify(query);

export function isNoFilter(filter: ListFilter): boolean {
  return queryKey(toQuery(filter)) === queryKey(ALL_FRAMES);
}
