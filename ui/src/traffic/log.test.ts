import { describe, expect, it } from "vitest";
import { TrafficLog } from "./log";
import { row } from "./rows.fixtures";

describe("TrafficLog", () => {
  it("counts frames off the schema once each, and frames the checks skipped", () => {
    const log = new TrafficLog();
    log.append([row(1), row(2)]);
    const violation = {
      kind: "schema_violation" as const,
      revision: "2025-11-25",
      violations: [{ path: "/result/tools/0", rule: "required", schema_path: "/definitions/Tool/required", message: "\"name\" is a required property" }],
    };
    log.flag(2, violation);
    log.flag(2, violation);
    log.flag(2, { kind: "reused_request_id", id: 1, first_seq: 1 });
    expect(log.schemaViolations).toEqual(new Set([2]));
    expect(log.schemaVersion).toBe(1);
    log.flag(2, { kind: "not_checked", frames: 40 });
    log.flag(1, { kind: "not_checked", frames: 2 });
    expect(log.notChecked).toBe(42);
  });

  it("appends in place and skips rows it already has", () => {
    const log = new TrafficLog();
    const array = log.rows;
    expect(log.append([row(1), row(2)])).toBe(2);
    expect(log.append([row(2), row(3)])).toBe(1);
    expect(log.append([row(1)])).toBe(0);
    expect(log.rows).toBe(array); // the same array: never copied
    expect(log.rows.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(log.lastSeq).toBe(3);
  });

  it("bumps its version only when something changed", () => {
    const log = new TrafficLog();
    log.append([row(1)]);
    const v = log.version;
    log.append([row(1)]);
    expect(log.version).toBe(v);
    log.append([row(4)]);
    expect(log.version).toBe(v + 1);
  });

  it("merges a catch-up that overlaps live rows: ordered, no duplicates", () => {
    const log = new TrafficLog();
    log.append([row(8), row(9)]); // live events came first
    const added = log.merge([row(1), row(3), row(8)]); // then traffic_rows from index 0
    expect(added).toBe(2);
    expect(log.rows.map((r) => r.seq)).toEqual([1, 3, 8, 9]);
    log.append([row(10)]);
    expect(log.rows.map((r) => r.seq)).toEqual([1, 3, 8, 9, 10]);
  });

  it("merges a catch-up that is all newer by appending in place", () => {
    const log = new TrafficLog();
    log.append([row(1)]);
    const array = log.rows;
    log.merge([row(2), row(3)]);
    expect(log.rows).toBe(array);
    expect(log.rows.map((r) => r.seq)).toEqual([1, 2, 3]);
  });

  it("keeps flags per frame, once each", () => {
    const log = new TrafficLog();
    log.flag(5, { kind: "duplicate_response", id: 2 });
    log.flag(5, { kind: "duplicate_response", id: 2 });
    log.flag(5, { kind: "oversized", limit: 10 });
    expect(log.flags.get(5)).toEqual([
      { kind: "duplicate_response", id: 2 },
      { kind: "oversized", limit: 10 },
    ]);
    expect(log.flags.get(6)).toBeUndefined();
  });
});
