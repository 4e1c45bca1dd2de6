import { describe, expect, it } from "vitest";
import { NetworkLog } from "./networkLog";
import { exchange } from "./exchanges.fixtures";

describe("NetworkLog", () => {
  it("appends in place and skips exchanges it already holds", () => {
    const log = new NetworkLog();
    const array = log.exchanges;
    expect(log.append([exchange(1), exchange(2)])).toBe(2);
    expect(log.append([exchange(2), exchange(3)])).toBe(1);
    expect(log.exchanges).toBe(array);
    expect(log.exchanges.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(log.version).toBe(2);
    expect(log.append([exchange(3)])).toBe(0);
    expect(log.version).toBe(2);
  });

  it("merges a catch-up with live exchanges by seq", () => {
    const log = new NetworkLog();
    log.append([exchange(4), exchange(5)]);
    expect(log.merge([1, 2, 3, 4].map((s) => exchange(s)))).toBe(3);
    expect(log.exchanges.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(log.get(3)?.seq).toBe(3);
    expect(log.get(9)).toBeUndefined();
  });
});
