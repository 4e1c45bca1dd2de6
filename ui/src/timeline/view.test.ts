import { describe, expect, it } from "vitest";
import type { Timeline } from "../bindings/Timeline";
import type { TimelineSpan } from "../bindings/TimelineSpan";
import { MIN_WIDTH_US, extentOf, followTo, packRows, panBy, progressFraction, spanEnd, spanFrame, zoomAt } from "./view";

function span(start: number, end: number | null, extra: Partial<TimelineSpan> = {}): TimelineSpan {
  return {
    request_seq: start,
    response_seq: end === null ? null : end,
    method: "tools/call",
    id: "1",
    direction: "out",
    start_us: start,
    end_us: end,
    duration_us: end === null ? null : end - start,
    outcome: end === null ? "pending" : "ok",
    progress: [],
    progress_count: 0,
    rounds: [],
    ...extra,
  };
}

function timeline(spans: TimelineSpan[], now = 10_000): Timeline {
  return { spans, ticks: [], omitted_spans: 0, omitted_ticks: 0, now_us: now };
}

describe("the visible domain", () => {
  it("zooms about the anchor, keeping it at the same place on screen", () => {
    const d = { from: 0, to: 1_000_000 };
    const z = zoomAt(d, 0.5, 250_000);
    expect(z.to - z.from).toBe(500_000);
    // The anchor was a quarter across and still is.
    expect((250_000 - z.from) / (z.to - z.from)).toBeCloseTo(0.25);
    const out = zoomAt(z, 2, 250_000);
    expect(out.from).toBeCloseTo(0);
    expect(out.to).toBeCloseTo(1_000_000);
  });

  it("never zooms narrower than the minimum width", () => {
    const z = zoomAt({ from: 0, to: 1_000 }, 0.001, 500);
    expect(z.to - z.from).toBe(MIN_WIDTH_US);
  });

  it("pans and follows without changing the width", () => {
    expect(panBy({ from: 10, to: 20 }, 5)).toEqual({ from: 15, to: 25 });
    const f = followTo({ from: 0, to: 100 }, 1_000);
    expect(f.to - f.from).toBe(100);
    expect(f.to).toBeGreaterThan(1_000);
  });

  it("fits spans, unanswered ones up to now, and ticks, with a margin", () => {
    expect(extentOf([timeline([])])).toBeNull();
    const t = timeline([span(1_000, 2_000), span(3_000, null)], 9_000);
    t.ticks.push({ seq: 9, at_us: 500, direction: "in", kind: "notification", method: "notifications/message" });
    const e = extentOf([t]);
    expect(e).not.toBeNull();
    expect(e!.from).toBeLessThan(500);
    expect(e!.to).toBeGreaterThan(9_000);
  });
});

describe("spans", () => {
  it("packs overlapping spans into separate rows and reuses a row once free", () => {
    const spans = [span(0, 100), span(50, 150), span(120, 200), span(160, null)];
    const { rows, count } = packRows(spans, 1_000);
    expect(rows).toEqual([0, 1, 0, 1]);
    expect(count).toBe(2);
  });

  it("ends an unanswered span at now, and opens its request (or its answer when the request is older)", () => {
    expect(spanEnd(span(10, null), 500)).toBe(500);
    expect(spanEnd(span(10, 20), 500)).toBe(20);
    expect(spanFrame(span(10, 20))).toBe(10);
    expect(spanFrame({ ...span(10, 20), request_seq: null })).toBe(20);
  });

  it("reads progress as a fraction only when a total was given", () => {
    expect(progressFraction({ seq: 1, at_us: 1, progress: 2, total: 4, message: null })).toBe(0.5);
    expect(progressFraction({ seq: 1, at_us: 1, progress: 9, total: 4, message: null })).toBe(1);
    expect(progressFraction({ seq: 1, at_us: 1, progress: 2, total: null, message: null })).toBeNull();
    expect(progressFraction({ seq: 1, at_us: 1, progress: 2, total: 0, message: null })).toBeNull();
  });
});
