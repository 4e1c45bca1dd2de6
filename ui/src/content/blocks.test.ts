import { describe, expect, it } from "vitest";
import { problemText } from "./blocks";
import { viewerFor } from "./viewers";
import { readResult, toolResult } from "../testing/results";

// The engine reads every block and result (its own tests cover the reading); these check that
// the UI words what the engine found and shows each resource in the viewer the engine chose.
describe("content the engine read, in the UI's words", () => {
  it("words each problem with its parameters", () => {
    expect(problemText({ kind: "unknownType", type: "hologram" })).toBe('unknown content type "hologram"');
    expect(problemText({ kind: "mediaMimeType", type: "image", mime_type: "text/html" })).toBe(
      'image block with mimeType "text/html"',
    );
    expect(toolResult("tool/not_an_object").problems.map(problemText)).toEqual(["the result is not an object"]);
    expect(toolResult("tool/no_content").problems.map(problemText)).toEqual(["the result has no content array"]);
  });

  it("shows image blobs as images, other blobs as bytes, JSON as a tree, and JSON that does not parse as text", () => {
    const kinds = readResult("read/image_binary_broken_json").contents.map((item) =>
      item.read === "contents" ? viewerFor(item).kind : problemText(item.problem),
    );
    expect(kinds).toEqual(["image", "binary", "resource contents have neither text nor blob", "json", "text"]);
    const image = readResult("read/image_binary_broken_json").contents[0]!;
    expect(image.read === "contents" && viewerFor(image)).toMatchObject({ src: expect.stringMatching(/^data:image\/png;base64,/) });
  });
});
