import { describe, expect, it } from "vitest";
import { CONSOLE_LIMIT, ConsoleLog } from "./consoleLog";

const line = (seq: number, wall_us = seq * 10) => ({ seq, wall_us, mono_us: seq, text: `line ${seq}` });

describe("ConsoleLog", () => {
  it("skips stderr lines it already has, and merges a catch-up by time", () => {
    const log = new ConsoleLog();
    log.addStderr([line(4), line(6)]);
    log.addStderr([line(6)]);
    expect(log.mergeStderr([line(1), line(4)])).toBe(1);
    expect(log.entries.map((e) => (e.kind === "stderr" ? e.seq : -1))).toEqual([1, 4, 6]);
  });

  it("accepts seqs again after a new connection, and marks it", () => {
    const log = new ConsoleLog();
    log.addStderr([line(1)]);
    log.newSession(100);
    log.addStderr([line(1, 200)]);
    expect(log.entries.map((e) => e.kind)).toEqual(["stderr", "event", "stderr"]);
  });

  it("drops the oldest entries past its limit", () => {
    const log = new ConsoleLog();
    const lines = Array.from({ length: CONSOLE_LIMIT + 6000 }, (_, i) => line(i + 1));
    log.addStderr(lines);
    expect(log.entries.length).toBe(CONSOLE_LIMIT);
    expect(log.dropped).toBe(6000);
    expect(log.entries[log.entries.length - 1]).toMatchObject({ seq: CONSOLE_LIMIT + 6000 });
  });
});
