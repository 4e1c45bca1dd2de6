import { describe, expect, it } from "vitest";
import { parseSamplingBlock, parseSamplingRequest, parseToolInput, toolUseId } from "./sampling";

describe("parseSamplingRequest", () => {
  it("reads a full request", () => {
    const r = parseSamplingRequest({
      messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
      systemPrompt: "Be brief.",
      modelPreferences: { hints: [{ name: "claude" }, {}], costPriority: 0.2, intelligencePriority: 0.9 },
      includeContext: "thisServer",
      temperature: 0.7,
      maxTokens: 100,
      stopSequences: ["END", 3],
      tools: [{ name: "weather", description: "Gets weather", inputSchema: { type: "object" } }, { description: "x" }],
      toolChoice: { mode: "required" },
      metadata: { k: 1 },
    });
    expect(r.messages).toEqual([{ role: "user", blocks: [{ type: "text", text: "hi" }] }]);
    expect(r.hints).toEqual(["claude"]);
    expect(r.priorities).toEqual([
      { name: "cost", value: 0.2 },
      { name: "intelligence", value: 0.9 },
    ]);
    expect([r.systemPrompt, r.includeContext, r.temperature, r.maxTokens]).toEqual(["Be brief.", "thisServer", 0.7, 100]);
    expect(r.stopSequences).toEqual(["END"]);
    expect(r.tools.map((t) => t.name)).toEqual(["weather"]);
    expect(r.toolChoice).toBe("required");
    expect(r.metadata).toEqual({ k: 1 });
    expect(r.problems).toEqual(["a tool offered has no name"]);
  });

  it("never throws on malformed params", () => {
    for (const params of [null, 3, "x", [], { messages: "no" }, { messages: [null, { content: 1 }] }]) {
      expect(() => parseSamplingRequest(params)).not.toThrow();
    }
    expect(parseSamplingRequest(null).problems).toEqual(["the request's params are not an object"]);
    expect(parseSamplingRequest({ messages: [5] }).problems).toEqual(["message 1 is not an object", "the request has no maxTokens"]);
  });
});

describe("parseSamplingBlock", () => {
  it("shows only image and audio data it can build a data: URI for", () => {
    expect(parseSamplingBlock({ type: "image", data: "AAAA", mimeType: "image/png" })).toMatchObject({
      type: "image",
      src: "data:image/png;base64,AAAA",
    });
    expect(parseSamplingBlock({ type: "image", data: "AAAA", mimeType: "text/html" })).toMatchObject({ type: "other" });
    expect(parseSamplingBlock({ type: "image", data: "AA\"><x", mimeType: "image/png" })).toMatchObject({ type: "other" });
    expect(parseSamplingBlock({ type: "image", data: "AAAA", mimeType: "image/png;x,y" })).toMatchObject({ type: "other" });
    expect(parseSamplingBlock({ type: "audio", data: "AAAA", mimeType: "audio/wav" })).toMatchObject({ type: "audio" });
  });

  it("reads tool uses and tool results, and keeps the rest as JSON", () => {
    expect(parseSamplingBlock({ type: "tool_use", id: "t1", name: "w", input: { a: 1 } })).toEqual({
      type: "tool_use",
      id: "t1",
      name: "w",
      input: { a: 1 },
    });
    expect(
      parseSamplingBlock({ type: "tool_result", toolUseId: "t1", content: [{ type: "text", text: "sunny" }], isError: true }),
    ).toEqual({ type: "tool_result", toolUseId: "t1", isError: true, content: [{ type: "text", text: "sunny" }] });
    expect(parseSamplingBlock({ type: "resource_link", uri: "x:y" })).toEqual({
      type: "other",
      reason: null,
      raw: { type: "resource_link", uri: "x:y" },
    });
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
