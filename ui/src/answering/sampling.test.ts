import { describe, expect, it } from "vitest";
import { offSpecText } from "../i18n/offSpec";
import { parseToolInput, prioritiesOf, toolUseId } from "./sampling";
import { samplingRequest } from "../testing/results";

// The engine reads the request (vocabulary/views/sampling.rs, with its tests); these check what
// the UI makes of its view.
describe("the request the engine read", () => {
  it("lists the priorities given, in order", () => {
    expect(prioritiesOf(samplingRequest("sampling/full"))).toEqual([
      { name: "cost", value: 0.2 },
      { name: "intelligence", value: 0.9 },
    ]);
    expect(prioritiesOf(samplingRequest("sampling/no_tools"))).toEqual([]);
  });

  it("words what was off in the request", () => {
    expect(samplingRequest("sampling/full").problems.map(offSpecText)).toEqual(["tools[1].name is missing"]);
    expect(samplingRequest("sampling/params_null").problems.map(offSpecText)).toEqual(["the request's params are not an object"]);
    expect(samplingRequest("sampling/message_not_object").problems.map(offSpecText)).toEqual([
      "messages[0] is not of type object",
      "maxTokens is missing",
    ]);
  });
});

describe("toolUseId and parseToolInput", () => {
  it("makes distinct ids", () => {
    const a = toolUseId();
    expect(a).toMatch(/^toolu_[0-9a-f]{24}$/);
    expect(toolUseId()).not.toBe(a);
  });

  it("wants a JSON object", () => {
    expect(parseToolInput('{"city":"Paris"}')).toEqual({ input: { city: "Paris" } });
    expect(parseToolInput("[1]")).toEqual({ error: "The input must be a JSON object, like {}." });
    expect(parseToolInput("{")).toMatchObject({ error: expect.stringMatching(/not valid JSON/) });
  });
});
