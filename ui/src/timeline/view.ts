// The timeline's pure parts: the visible time domain (zoom, pan, fit, follow), where each span
// sits (rows packed so overlapping calls don't hide each other), and what a span shows.
import type { ProgressMark } from "../bindings/ProgressMark";
import type { Timeline } from "../bindings/Timeline";
import type { TimelineSpan } from "../bindings/TimelineSpan";

/** A visible time range, wall clock µs since the epoch. */
export interface Domain {
  from: number;
  to: number;
}

/** The narrowest view: 200 µs across (a ping on loopback still has a width). */
export const MIN_WIDTH_US = 200;
/** The widest view: a week. */
export const MAX_WIDTH_US = 7 * 24 * 3600 * 1e6;
/** How much one zoom step (a button, a wheel notch) narrows or widens the view. */
export const ZOOM_STEP = 1.5;

const clampWidth = (w: number) => Math.min(MAX_WIDTH_US, Math.max(MIN_WIDTH_US, w));

/** Zooms by `factor` (< 1 zooms in) keeping the instant `anchor` where it is on screen. */
export function zoomAt(d: Domain, factor: number, anchor: number): Domain {
  const width = d.to - d.from;
  const next = clampWidth(width * factor);
  const at = width > 0 ? (anchor - d.from) / width : 0.5;
  const ratio = Math.min(1, Math.max(0, at));
  const from = anchor - ratio * next;
  return { from, to: from + next };
}

/** Moves the view by `deltaUs` (positive: later). */
export function panBy(d: Domain, deltaUs: number): Domain {
  return { from: d.from + deltaUs, to: d.to + deltaUs };
}

/** Where a span ends on screen: its answer, or now while it has none. */
export function spanEnd(span: TimelineSpan, nowUs: number): number {
  return span.end_us ?? Math.max(nowUs, span.start_us);
}

/** Everything in `timelines`, with a margin on each side; null when there is nothing. */
export function extentOf(timelines: readonly Timeline[]): Domain | null {
  let from = Infinity;
  let to = -Infinity;
  for (const t of timelines) {
    for (const s of t.spans) {
      from = Math.min(from, s.start_us);
      to = Math.max(to, spanEnd(s, t.now_us));
    }
    for (const k of t.ticks) {
      from = Math.min(from, k.at_us);
      to = Math.max(to, k.at_us);
    }
  }
  if (!Number.isFinite(from)) return null;
  const width = clampWidth(to - from);
  const margin = width * 0.03;
  const middle = (from + to) / 2;
  return { from: Math.min(from, middle - width / 2) - margin, to: Math.max(to, middle + width / 2) + margin };
}

/** The view that keeps its width and shows `end` at its right edge (live follow). */
export function followTo(d: Domain, end: number): Domain {
  const width = d.to - d.from;
  const to = end + width * 0.03;
  return { from: to - width, to };
}

/**
 * A row for each span (in the order given, which is by start) so no two spans in a row
 * overlap: each takes the first row free at its start. Returns the rows and how many there are.
 */
export function packRows(spans: readonly TimelineSpan[], nowUs: number): { rows: number[]; count: number } {
  const ends: number[] = [];
  const rows = spans.map((span) => {
    let row = ends.findIndex((end) => end <= span.start_us);
    if (row < 0) {
      row = ends.length;
      ends.push(0);
    }
    ends[row] = spanEnd(span, nowUs);
    return row;
  });
  return { rows, count: ends.length };
}

/** How far along a progress mark says its call is (0..1), when it gave a total. */
export function progressFraction(mark: ProgressMark): number | null {
  if (mark.total === null || !(mark.total > 0)) return null;
  return Math.min(1, Math.max(0, mark.progress / mark.total));
}

/** The frame a click on a span opens: its request, or its answer when the request is older. */
export function spanFrame(span: TimelineSpan): number | null {
  return span.request_seq ?? span.response_seq;
}
