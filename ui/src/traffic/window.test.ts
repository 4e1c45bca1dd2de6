import { describe, expect, it, vi } from "vitest";
import type { TrafficRow } from "../bindings/TrafficRow";
import { row } from "./rows.fixtures";
import { MAX_IN_FLIGHT, MAX_PAGES, OneAtATime, PAGE, RowWindow, TAIL } from "./window";

/** A record of `n` rows (seq = index + 1) the window fetches from, counting the fetches. */
function record(n: number) {
  const rows = Array.from({ length: n }, (_, i) => row(i + 1));
  const fetches: Array<[number, number]> = [];
  const fetch = vi.fn(async (offset: number, limit: number): Promise<TrafficRow[]> => {
    fetches.push([offset, limit]);
    return rows.slice(offset, offset + limit);
  });
  return { rows, fetches, fetch };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe("RowWindow", () => {
  it("fetches only the pages around what is in sight, and shows their rows", async () => {
    const { fetch, fetches } = record(1_000_000);
    const onRows = vi.fn();
    const window = new RowWindow(fetch, onRows);
    window.changed(1_000_000);
    expect(window.rowAt(500_000)).toBeUndefined();
    window.need(500_000, 500_030);
    await settle();
    // The page in sight first, then one either side.
    expect(fetches.map(([o]) => o)).toEqual([500_000, 500_100, 499_900]);
    expect(fetches.every(([, limit]) => limit === PAGE)).toBe(true);
    expect(window.rowAt(500_000)?.seq).toBe(500_001);
    expect(window.indexOfSeq(500_101)).toBe(500_100);
    expect(window.indexOfSeq(1)).toBe(-1);
    expect(onRows).toHaveBeenCalled();
    // In sight again: nothing fetched twice.
    window.need(500_000, 500_030);
    await settle();
    expect(fetches).toHaveLength(3);
  });

  it("scrolled to the end, shows the last row; a record that grew is fetched again in sight only", async () => {
    const { fetch, fetches } = record(250);
    const window = new RowWindow(fetch, () => {});
    window.changed(230);
    window.need(200, 229);
    await settle();
    expect(window.rowAt(229)?.seq).toBe(230);
    expect(window.rowAt(230)).toBeUndefined();
    fetches.length = 0;
    window.changed(250);
    // Stale rows stay shown until the fresh page comes.
    expect(window.rowAt(229)?.seq).toBe(230);
    window.need(220, 249);
    await settle();
    expect(fetches.map(([o]) => o)).toEqual([200, 100]);
    expect(window.rowAt(249)?.seq).toBe(250);
  });

  it("handed the newest rows with a count, shows the end at once; a fetch of an earlier moment does not replace them", async () => {
    const { rows } = record(1_000);
    const answers = new Map<number, (rows: TrafficRow[]) => void>();
    const slow = (offset: number) => new Promise<TrafficRow[]>((resolve) => answers.set(offset, resolve));
    const window = new RowWindow(slow, () => {});
    window.changed(600);
    window.need(570, 599);
    expect([...answers.keys()]).toEqual([500, 400]);
    // The record grew to 750 meanwhile: the count comes with rows 500..750 of the same moment.
    window.changedTo(750, 500, rows.slice(500, 750));
    expect(window.rowAt(749)?.seq).toBe(750);
    expect(window.rowAt(500)?.seq).toBe(501);
    // Rows 500..600 as fetched at 600 (before the tail) come back: the tail's page stays.
    answers.get(500)!(rows.slice(500, 600).map((r) => ({ ...r, preview: "old" })));
    // Rows 400..500, of no tail, are kept.
    answers.get(400)!(rows.slice(400, 500));
    await settle();
    expect(window.rowAt(550)?.preview).not.toBe("old");
    expect(window.rowAt(450)?.seq).toBe(451);
    // Following the end: the pages in sight, and the one before, are held; nothing is fetched.
    answers.clear();
    window.need(720, 749);
    await settle();
    expect([...answers.keys()]).toEqual([]);
    expect(TAIL).toBeGreaterThanOrEqual(PAGE);
  });

  it("coalesces: a scrollbar dragged across a million rows fetches where it stops, a few at a time", async () => {
    const rows = (offset: number) => Array.from({ length: PAGE }, (_, i) => row(offset + i + 1));
    const pending: Array<{ offset: number; resolve: () => void }> = [];
    const fetch = vi.fn(
      (offset: number) =>
        new Promise<TrafficRow[]>((resolve) => pending.push({ offset, resolve: () => resolve(rows(offset)) })),
    );
    const window = new RowWindow(fetch, () => {});
    window.changed(1_000_000);
    // A hundred positions passed in as many frames, while the first fetches are under way.
    for (let first = 0; first < 1_000_000; first += 10_000) window.need(first, first + 25);
    expect(fetch).toHaveBeenCalledTimes(MAX_IN_FLIGHT);
    // The fetches under way end: what starts next is for where the list stopped, not on the way.
    while (pending.length > 0) {
      pending.shift()!.resolve();
      await settle();
    }
    const offsets = fetch.mock.calls.map(([offset]) => offset);
    expect(offsets.slice(MAX_IN_FLIGHT).sort((a, b) => a - b)).toEqual([989_900, 990_000, 990_100]);
    expect(window.rowAt(990_000)?.seq).toBe(990_001);
  });

  it("asks again for a page whose fetch failed, the next time it is in sight", async () => {
    let fail = true;
    const fetch = vi.fn(async (offset: number): Promise<TrafficRow[]> => {
      if (fail) throw new Error("store busy");
      return [row(offset + 1)];
    });
    const onError = vi.fn();
    const window = new RowWindow(fetch, () => {}, onError);
    window.changed(1);
    window.need(0, 0);
    await settle();
    expect(onError).toHaveBeenCalledTimes(1);
    fail = false;
    window.need(0, 0);
    await settle();
    expect(window.rowAt(0)?.seq).toBe(1);
  });

  it("holds a bounded number of pages, dropping the least recently shown", async () => {
    const { fetch } = record(100_000);
    const window = new RowWindow(fetch, () => {});
    window.changed(100_000);
    for (let first = 0; first < 100_000; first += PAGE * 3) {
      window.need(first, first + 10);
      await settle();
    }
    expect(window.held).toBeLessThanOrEqual(MAX_PAGES);
    expect(window.rowAt(99_900)?.seq).toBe(99_901);
    expect(window.rowAt(0)).toBeUndefined();
  });

  it("once disposed, fetched rows are dropped and nobody is told", async () => {
    const { fetch } = record(10);
    const onRows = vi.fn();
    const window = new RowWindow(fetch, onRows);
    window.changed(10);
    window.need(0, 9);
    window.dispose();
    await settle();
    expect(onRows).not.toHaveBeenCalled();
    expect(window.rowAt(0)).toBeUndefined();
  });
});

describe("OneAtATime", () => {
  it("runs one task at a time, and of the ones asked for meanwhile only the newest, after", async () => {
    const runner = new OneAtATime();
    const ran: string[] = [];
    let release: () => void = () => {};
    runner.run(() => new Promise<void>((r) => (release = () => (ran.push("first"), r()))));
    runner.run(async () => void ran.push("second"));
    runner.run(async () => void ran.push("third"));
    expect(ran).toEqual([]);
    release();
    await settle();
    await settle();
    expect(ran).toEqual(["first", "third"]);
  });
});
