// What the Traffic list's filter bar holds: part of each server's traffic view (state/traffic.ts).
// The engine filter it becomes, and the choices the bar offers, are traffic/filter.ts.
import type { Direction } from "../bindings/Direction";
import type { EntryKind } from "../bindings/EntryKind";
import type { EntryStatus } from "../bindings/EntryStatus";

export type DirectionFilter = "all" | Direction;

/** Which entries: every frame (the default), one kind, or everything (stderr, HTTP included). */
export type KindFilter = "frames" | "everything" | EntryKind;

/** Entries with a given status, or any. */
export type StatusFilter = "all" | EntryStatus;

export type ChannelFilter = "all" | "server" | "app";

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
