// Filtering the traffic list. A filter pass over 100 000 rows is cheap once, not on every live
// batch: `FilteredView` remembers how far it has scanned and only looks at new rows while the
// filter and the array stay the same.
import type { Direction } from "../bindings/Direction";
import type { FrameRow } from "../bindings/FrameRow";

export type DirectionFilter = "all" | Direction;

/** Frames with a given finding: every frame, or only those off their revision's schema. */
export type StatusFilter = "all" | "schema_violation";

export interface TrafficFilter {
  text: string;
  direction: DirectionFilter;
  /** "all" when absent. */
  status?: StatusFilter;
}

/**
 * Which frames carry a finding the status filter asks about. Findings arrive after their
 * frame (the engine checks on a worker), so `version` changes with each one: a view rescans.
 */
export interface Marks {
  schemaViolations: ReadonlySet<number>;
  version: number;
}

/** True when a row passes the filter. `needle` must already be trimmed and lower-cased. */
export function matches(
  row: FrameRow,
  needle: string,
  direction: DirectionFilter,
  status: StatusFilter = "all",
  marks?: Marks,
): boolean {
  if (direction !== "all" && row.direction !== direction) return false;
  if (status === "schema_violation" && !(marks?.schemaViolations.has(row.seq) ?? false)) return false;
  if (needle === "") return true;
  return (
    contains(row.method, needle) ||
    contains(row.id, needle) ||
    contains(row.preview, needle) ||
    contains(row.problem, needle)
  );
}

function contains(field: string | null, needle: string): boolean {
  return field !== null && field.toLowerCase().includes(needle);
}

export function normalizeNeedle(text: string): string {
  return text.trim().toLowerCase();
}

export function isNoFilter(filter: TrafficFilter): boolean {
  return filter.direction === "all" && (filter.status ?? "all") === "all" && normalizeNeedle(filter.text) === "";
}

/** A one-shot filter (what the incremental view must always agree with). */
export function filterRows(rows: readonly FrameRow[], filter: TrafficFilter, marks?: Marks): FrameRow[] {
  const needle = normalizeNeedle(filter.text);
  return rows.filter((row) => matches(row, needle, filter.direction, filter.status, marks));
}

/** What a list shows: `count` rows, the i-th being `rowAt(i)`. */
export interface RowsView {
  count: number;
  total: number;
  rowAt(index: number): FrameRow | undefined;
  /** Index in the view of the row with this seq, or -1. */
  indexOfSeq(seq: number): number;
}

/** Incremental filter over one append-only rows array. */
export class FilteredView {
  private rows: readonly FrameRow[] | null = null;
  private key = "";
  private scanned = 0;
  private indices: number[] = [];

  /**
   * Brings the view up to date with `rows` (which may have grown since the last call) and
   * returns a snapshot. Rescans from scratch only when the filter or the array changed.
   */
  update(rows: readonly FrameRow[], filter: TrafficFilter, marks?: Marks): RowsView {
    const needle = normalizeNeedle(filter.text);
    const status = filter.status ?? "all";
    // A new finding can match a row already scanned: with a status filter, it rescans.
    const marked = status === "all" ? "" : `${status}\u0000${marks?.version ?? 0}`;
    const key = `${filter.direction}\u0000${needle}\u0000${marked}`;
    if (rows !== this.rows || key !== this.key || rows.length < this.scanned) {
      this.rows = rows;
      this.key = key;
      this.scanned = 0;
      this.indices = [];
    }
    const total = rows.length;
    if (needle === "" && filter.direction === "all" && status === "all") {
      this.scanned = total;
      return identityView(rows, total);
    }
    for (let i = this.scanned; i < total; i += 1) {
      const row = rows[i];
      if (row !== undefined && matches(row, needle, filter.direction, status, marks)) this.indices.push(i);
    }
    this.scanned = total;
    const indices = this.indices;
    const count = indices.length;
    return {
      count,
      total,
      rowAt: (index) => {
        const at = index < count ? indices[index] : undefined;
        return at === undefined ? undefined : rows[at];
      },
      indexOfSeq: (seq) => {
        const at = seqIndex(rows, seq, total);
        return at < 0 ? -1 : binarySearch(indices, at, count);
      },
    };
  }
}

function identityView(rows: readonly FrameRow[], total: number): RowsView {
  return {
    count: total,
    total,
    rowAt: (index) => (index < total ? rows[index] : undefined),
    indexOfSeq: (seq) => seqIndex(rows, seq, total),
  };
}

/** Index of the row with `seq` among the first `length` rows (ordered by seq), or -1. */
export function seqIndex(rows: readonly FrameRow[], seq: number, length: number): number {
  let lo = 0;
  let hi = length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const row = rows[mid];
    if (row === undefined) return -1;
    if (row.seq === seq) return mid;
    if (row.seq < seq) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

function binarySearch(sorted: readonly number[], value: number, length: number): number {
  let lo = 0;
  let hi = length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = sorted[mid];
    if (at === undefined) return -1;
    if (at === value) return mid;
    if (at < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
