import { afterEach, describe, expect, it } from "vitest";
import { applyLanguage } from "../i18n";
import { roundLabel } from "./rounds";

afterEach(() => applyLanguage("en"));

describe("roundLabel", () => {
  it("names the first request with the call's rounds and every later frame with its round", () => {
    expect(roundLabel({ first_seq: 3, round: 1, rounds: 3 })).toBe("call with 3 rounds");
    expect(roundLabel({ first_seq: 3, round: 2, rounds: 3 })).toBe("round 2 of #3");
    applyLanguage("zh-Hans");
    expect(roundLabel({ first_seq: 3, round: 3, rounds: 3 })).toBe("#3 的第 3 轮");
  });
});
