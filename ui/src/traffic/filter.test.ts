import { describe, expect, it } from "vitest";
import type { FrameRow } from "../bindings/FrameRow";
import { FilteredView, filterRows, isNoFilter, matches, seqIndex, type RowsView, type TrafficFilter } from "./filter";
import { row } from "./rows.fixtures";

const all = (view: RowsView): FrameRow[] =>
  Array.from({ length: view.count }, (_, i) => view.rowAt(i)).filter((r): r is FrameRow => r !== undefined);

describe("matches", () => {
  const frame = row(7, {
    method: "tools/List",
    id: "\"abc\"",
    preview: "{\"Hello\":1}",
    problem: "Not JSON: trailing comma",
  });

  it("looks in method, id, preview and problem, ignoring case", () => {
    expect(matches(frame, "tools/list", "all")).toBe(true);
    expect(matches(frame, "abc", "all")).toBe(true);
    expect(matches(frame, "hello", "all")).toBe(true);
    expect(matches(frame, "trailing", "all")).toBe(true);
    expect(matches(frame, "resources", "all")).toBe(false);
  });

  it("filters by direction", () => {
    expect(matches(frame, "", "out")).toBe(true);
    expect(matches(frame, "", "in")).toBe(false);
  });

  it("copes with absent fields", () => {
    expect(matches(row(1, { method: null, id: null, problem: null }), "x", "all")).toBe(false);
  });
});

describe("the schema violation filter", () => {
  it("keeps only marked frames, and rescans when a frame is marked after it was scanned", () => {
    const rows = [row(1), row(2), row(3), row(4)];
    const marked = new Set([2]);
    const filter: TrafficFilter = { text: "", direction: "all", status: "schema_violation" };
    const view = new FilteredView();
    expect(all(view.update(rows, filter, { schemaViolations: marked, version: 1 })).map((r) => r.seq)).toEqual([2]);
    marked.add(3); // the checks flag frames after they are listed
    expect(all(view.update(rows, filter, { schemaViolations: marked, version: 2 })).map((r) => r.seq)).toEqual([2, 3]);
    expect(filterRows(rows, filter, { schemaViolations: marked, version: 2 }).map((r) => r.seq)).toEqual([2, 3]);
    expect(matches(row(2), "", "in", "schema_violation")).toBe(false); // no marks: nothing matches
    expect(isNoFilter(filter)).toBe(false);
  });
});

describe("FilteredView", () => {
  it("shows every row, without copying, when nothing is filtered", () => {
    const rows = [row(1), row(2), row(3)];
    const view = new FilteredView().update(rows, { text: "  ", direction: "all" });
    expect(view.count).toBe(3);
    expect(view.total).toBe(3);
    expect(view.rowAt(2)).toBe(rows[2]);
    expect(view.indexOfSeq(2)).toBe(1);
  });

  it("agrees with a one-shot filter while rows are appended in place", () => {
    const rows: FrameRow[] = [];
    const filtered = new FilteredView();
    const filter: TrafficFilter = { text: "PING", direction: "in" };
    for (let seq = 1; seq <= 500; seq += 1) {
      rows.push(row(seq, { method: seq % 3 === 0 ? "ping" : "tools/call" }));
      if (seq % 37 === 0) {
        expect(all(filtered.update(rows, filter))).toEqual(filterRows(rows, filter));
      }
    }
    const view = filtered.update(rows, filter);
    expect(all(view)).toEqual(filterRows(rows, filter));
    expect(view.count).toBe(83); // even seqs that are multiples of 3, up to 500
  });

  it("starts over when the filter changes", () => {
    const rows = [row(1, { method: "initialize" }), row(2, { method: "initialize" }), row(3, { method: "ping" })];
    const filtered = new FilteredView();
    expect(filtered.update(rows, { text: "init", direction: "all" }).count).toBe(2);
    expect(filtered.update(rows, { text: "ping", direction: "all" }).count).toBe(1);
    expect(filtered.update(rows, { text: "", direction: "out" }).count).toBe(2);
  });

  it("starts over when the array is replaced (a catch-up merge)", () => {
    const filtered = new FilteredView();
    const filter: TrafficFilter = { text: "x", direction: "all" };
    filtered.update([row(5, { method: "x" })], filter);
    const merged = [row(1, { method: "x" }), row(5, { method: "x" })];
    expect(all(filtered.update(merged, filter)).map((r) => r.seq)).toEqual([1, 5]);
  });

  it("keeps a snapshot's count while rows keep arriving", () => {
    const rows = [row(1)];
    const filtered = new FilteredView();
    const snapshot = filtered.update(rows, { text: "tools", direction: "all" });
    rows.push(row(2));
    filtered.update(rows, { text: "tools", direction: "all" });
    expect(snapshot.count).toBe(1);
    expect(snapshot.rowAt(1)).toBeUndefined();
  });

  it("finds a row's position in the filtered view", () => {
    const rows = [row(1), row(2), row(4), row(9)];
    const view = new FilteredView().update(rows, { text: "", direction: "in" });
    expect(view.indexOfSeq(4)).toBe(1);
    expect(view.indexOfSeq(9)).toBe(-1); // filtered out (out)
    expect(view.indexOfSeq(3)).toBe(-1); // no such frame
  });
});

describe("filtering 100 000 rows", () => {
  it("is an incremental pass, not a full rescan per batch", () => {
    const rows: FrameRow[] = [];
    for (let seq = 1; seq <= 100_000; seq += 1) rows.push(row(seq, { method: seq % 10 === 0 ? "ping" : "tools/call" }));
    const filtered = new FilteredView();
    const filter: TrafficFilter = { text: "ping", direction: "all" };
    expect(filtered.update(rows, filter).count).toBe(10_000);
    const started = performance.now();
    for (let batch = 0; batch < 1000; batch += 1) {
      rows.push(row(rows.length + 1, { method: "ping" }));
      filtered.update(rows, filter);
    }
    const elapsed = performance.now() - started;
    expect(filtered.update(rows, filter).count).toBe(11_000);
    // 1000 batches over 100k rows: a full rescan each time would take seconds.
    expect(elapsed).toBeLessThan(500);
  });
});

describe("seqIndex", () => {
  it("binary-searches rows ordered by seq (with gaps)", () => {
    const rows = [row(2), row(3), row(7), row(11)];
    expect(seqIndex(rows, 7, rows.length)).toBe(2);
    expect(seqIndex(rows, 4, rows.length)).toBe(-1);
    expect(seqIndex(rows, 11, 3)).toBe(-1);
  });
});
