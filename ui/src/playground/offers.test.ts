import { describe, expect, it } from "vitest";
import { followOffers, messageText, offerToComposer } from "./offers";

describe("offers to the Playground's message box", () => {
  it("waits for the box when it is not shown, then hands it over once", () => {
    offerToComposer("s1", "The sum is 5");
    const got: string[] = [];
    const stop = followOffers("s1", (t) => got.push(t));
    expect(got).toEqual(["The sum is 5"]);
    stop();
    const again: string[] = [];
    followOffers("s1", (t) => again.push(t))();
    expect(again).toEqual([]);
  });

  it("goes straight to a shown box, and only to its server's", () => {
    const a: string[] = [];
    const b: string[] = [];
    const stopA = followOffers("a", (t) => a.push(t));
    const stopB = followOffers("b", (t) => b.push(t));
    offerToComposer("a", "hello");
    expect(a).toEqual(["hello"]);
    expect(b).toEqual([]);
    stopA();
    stopB();
  });

  it("takes the text blocks of an array or of one block", () => {
    expect(messageText([{ type: "text", text: "one" }, { type: "image", data: "x", mimeType: "image/png" }, { type: "text", text: "two" }])).toBe("one\n\ntwo");
    expect(messageText({ type: "text", text: "single" })).toBe("single");
    expect(messageText(null)).toBe("");
  });
});
