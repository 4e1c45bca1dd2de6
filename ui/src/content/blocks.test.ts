import { describe, expect, it } from "vitest";
import { parseBlock, parsePromptResult, parseReadResult, parseToolResult } from "./blocks";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

describe("parseToolResult", () => {
  it("reads text and image blocks, and isError", () => {
    const result = parseToolResult({
      content: [
        { type: "text", text: "invalid arguments: sku must match ^[A-Z]{3}-[0-9]{4}$" },
        { type: "image", data: PNG, mimeType: "image/png" },
      ],
      isError: true,
    });
    expect(result.isError).toBe(true);
    expect(result.problems).toEqual([]);
    expect(result.blocks[0]).toEqual({ type: "text", text: "invalid arguments: sku must match ^[A-Z]{3}-[0-9]{4}$" });
    expect(result.blocks[1]).toMatchObject({ type: "image", mimeType: "image/png", src: `data:image/png;base64,${PNG}` });
    expect(result.blocks[1]).toMatchObject({ size: 70 });
  });

  it("keeps structuredContent and treats a missing isError as success", () => {
    const result = parseToolResult({ content: [{ type: "text", text: "42" }], structuredContent: { sum: 42 } });
    expect(result.isError).toBe(false);
    expect(result.structured).toEqual({ sum: 42 });
  });

  it("says what is wrong with a result of the wrong shape instead of failing", () => {
    expect(parseToolResult("nope").problems).toEqual(["the result is not an object"]);
    expect(parseToolResult({}).problems).toEqual(["the result has no content array"]);
  });
});

describe("parseBlock", () => {
  it("reads audio, links and embedded resources", () => {
    expect(parseBlock({ type: "audio", data: "UklGRg==", mimeType: "audio/wav" })).toMatchObject({
      type: "audio",
      src: "data:audio/wav;base64,UklGRg==",
    });
    expect(
      parseBlock({ type: "resource_link", uri: "demo://text/1", name: "Text resource 1", mimeType: "text/plain" }),
    ).toMatchObject({ type: "resource_link", uri: "demo://text/1", name: "Text resource 1", title: null });
    expect(
      parseBlock({ type: "resource", resource: { uri: "demo://text/2", mimeType: "text/plain", text: "two" } }),
    ).toEqual({
      type: "resource",
      resource: { uri: "demo://text/2", mimeType: "text/plain", text: "two", blob: null },
    });
  });

  it("turns anything unexpected into an unknown block that keeps the JSON", () => {
    expect(parseBlock({ type: "hologram" })).toEqual({
      type: "unknown",
      reason: 'unknown content type "hologram"',
      raw: { type: "hologram" },
    });
    expect(parseBlock({ type: "image", data: PNG })).toMatchObject({ type: "unknown" });
    expect(parseBlock(7)).toMatchObject({ type: "unknown" });
  });
});

describe("other results", () => {
  it("reads resource contents, with an image preview for image blobs", () => {
    const contents = parseReadResult({
      contents: [
        { uri: "demo://img", mimeType: "image/png", blob: PNG },
        { uri: "demo://bin", mimeType: "application/octet-stream", blob: "AAEC" },
        { uri: "demo://broken" },
      ],
    });
    expect(contents[0]).toMatchObject({ blob: { imageSrc: `data:image/png;base64,${PNG}` } });
    expect(contents[1]).toMatchObject({ blob: { size: 3, imageSrc: null } });
    expect(contents[2]).toMatchObject({ problem: "resource contents have neither text nor blob" });
  });

  it("reads prompt messages", () => {
    const prompt = parsePromptResult({
      description: "A greeting",
      messages: [{ role: "user", content: { type: "text", text: "Hello Ada" } }],
    });
    expect(prompt.description).toBe("A greeting");
    expect(prompt.messages).toEqual([{ role: "user", block: { type: "text", text: "Hello Ada" } }]);
  });
});
