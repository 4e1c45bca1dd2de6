import { describe, expect, it } from "vitest";
import { TrafficLog } from "./log";
import { RoundIndex } from "./rounds";
import { row } from "./rows.fixtures";

// A call of three rounds, as the engine links it: request 3 (round 1) was answered
// input_required by 4; request 5 (round 2) by 6; request 7 (round 3) by 8, the result.
const call = [
  row(3),
  row(4),
  row(5, { call: { first_seq: 3, round: 2, asked_by: 4 } }),
  row(6, { call: { first_seq: 3, round: 2, asked_by: 4 } }),
  row(7, { call: { first_seq: 3, round: 3, asked_by: 6 } }),
  row(8, { call: { first_seq: 3, round: 3, asked_by: 6 } }),
];

describe("RoundIndex", () => {
  it("names every frame of a call with its round, and the first request with the count", () => {
    const index = RoundIndex.of([row(1), row(2), ...call]);
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((seq) => index.label(seq))).toEqual([
      null,
      null,
      "call with 3 rounds",
      "round 1 of #3",
      "round 2 of #3",
      "round 2 of #3",
      "round 3 of #3",
      "round 3 of #3",
    ]);
    expect(index.mark(6)).toEqual({ firstSeq: 3, round: 2 });
  });

  it("counts the rounds seen so far while the call goes on", () => {
    const index = new RoundIndex();
    for (const r of call.slice(0, 4)) index.add(r);
    expect(index.label(3)).toBe("call with 2 rounds");
    for (const r of call.slice(4)) index.add(r);
    expect(index.label(3)).toBe("call with 3 rounds");
  });
});

describe("TrafficLog rounds", () => {
  it("keeps its round index through live appends and a catch-up merge", () => {
    const log = new TrafficLog();
    log.append(call.slice(2));
    expect(log.rounds.label(7)).toBe("round 3 of #3");
    log.merge([row(1), ...call.slice(0, 2)]);
    expect(log.rounds.label(3)).toBe("call with 3 rounds");
    expect(log.rounds.label(1)).toBeNull();
  });
});
