import { act, renderHook, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { TrafficFilter } from "../bindings/TrafficFilter";
import { NO_FILTER } from "../state/trafficFilter";
import { ALL_FRAMES, toQuery } from "./filter";
import { useTrafficWindow } from "./useTrafficWindow";

const invoke = vi.hoisted(() => vi.fn());
vi.mock("@tauri-apps/api/core", () => ({ invoke, Channel: class {} }));

/** Each server's record: how many frames, and how many a method filter keeps. */
const RECORDS: Record<string, { all: number; method: number }> = {
  big: { all: 1_000_003, method: 1_000_000 },
  small: { all: 5, method: 2 },
};
/** Counts answer after this long (a slow store), so filters change while one is under way. */
let latency = 0;

beforeEach(() => {
  latency = 0;
  invoke.mockReset();
  invoke.mockImplementation(async (command: string, args: { serverId: string; filter: TrafficFilter }) => {
    await new Promise((r) => setTimeout(r, latency));
    const record = RECORDS[args.serverId]!;
    if (command === "traffic_count") return args.filter.method ? record.method : record.all;
    if (command === "traffic_window") return [];
    throw new Error(`unexpected ${command}`);
  });
});

const METHOD = toQuery({ ...NO_FILTER, method: "notifications/message" });

describe("useTrafficWindow", () => {
  it("counts every frame again once a method filter is cleared, however the counts interleave with the record's changes", async () => {
    latency = 30;
    const { result, rerender } = renderHook(
      ({ query, listedTo }: { query: TrafficFilter; listedTo: number }) => useTrafficWindow("big", query, listedTo, 1),
      { initialProps: { query: ALL_FRAMES, listedTo: 1_000_003 } },
    );
    await waitFor(() => expect(result.current.counts).toEqual({ shown: 1_000_003, total: 1_000_003, counted: true }));
    rerender({ query: METHOD, listedTo: 1_000_003 });
    // The record's summary changes while the method is counted (checks catching up).
    rerender({ query: METHOD, listedTo: 1_000_004 });
    await waitFor(() => expect(result.current.counts.shown).toBe(1_000_000));
    // Cleared at once, as the bench does: the count is every frame's again, not the method's.
    rerender({ query: toQuery(NO_FILTER), listedTo: 1_000_004 });
    expect(result.current.counts.counted).toBe(false);
    await waitFor(() => expect(result.current.counts).toEqual({ shown: 1_000_003, total: 1_000_003, counted: true }));
    await act(() => new Promise((r) => setTimeout(r, 100)));
    expect(result.current.counts.shown).toBe(1_000_003);
  });

  it("does not reuse one server's total for another whose record is as long", async () => {
    const { result, rerender } = renderHook(
      ({ server, query }: { server: string; query: TrafficFilter }) => useTrafficWindow(server, query, 7, 1),
      { initialProps: { server: "big", query: METHOD } },
    );
    await waitFor(() => expect(result.current.counts).toEqual({ shown: 1_000_000, total: 1_000_003, counted: true }));
    rerender({ server: "small", query: METHOD });
    await waitFor(() => expect(result.current.counts.shown).toBe(2));
    expect(result.current.counts.total).toBe(5);
  });
});
