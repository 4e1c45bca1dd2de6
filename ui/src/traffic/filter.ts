// What the Traffic list's filter bar holds, and the engine filter it becomes. The filtering
// itself runs in Rust (one function, over the store or memory): nothing here looks at a row.
import type { Direction } from "../bindings/Direction";
import type { EntryKind } from "../bindings/EntryKind";
import type { EntryStatus } from "../bindings/EntryStatus";
import type { TrafficFilter } from "../bindings/TrafficFilter";
import type { ChannelFilter } from "./TrafficChannelChips";

export type DirectionFilter = "all" | Direction;

/** Which entries: every frame (the default), one kind, or everything (stderr, HTTP included). */
export type KindFilter = "frames" | "everything" | EntryKind;

/** Entries with a given status, or any. */
export type StatusFilter = "all" | EntryStatus;

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

/** The filter bar's fields. */
export interface ListFilter {
  /** Words every listed body contains (full text). */
  text: string;
  direction: DirectionFilter;
  /** The server's frames, an MCP App's (host ↔ app views), or both. */
  channel: ChannelFilter;
  kind: KindFilter;
  /** Exactly this method ("" for any). */
  method: string;
  status: StatusFilter;
  /** Wall clock range in µs since the epoch, both ends included (null: open). */
  fromUs: number | null;
  toUs: number | null;
}

export const NO_FILTER: ListFilter = {
  text: "",
  direction: "all",
  channel: "all",
  kind: "frames",
  method: "",
  status: "all",
  fromUs: null,
  toUs: null,
};

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
