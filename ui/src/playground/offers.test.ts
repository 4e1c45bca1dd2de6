import { describe, expect, it } from "vitest";
import type { ContentBlock } from "../bindings/ContentBlock";
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

  it("takes the text blocks of the content the engine read", () => {
    const text = (t: string): ContentBlock => ({ type: "text", text: t, raw: { type: "text", text: t } });
    const image: ContentBlock = { type: "image", mime_type: "image/png", data: "AAAA", size: 3, raw: {} };
    expect(messageText([text("one"), image, text("two")])).toBe("one\n\ntwo");
    expect(messageText([])).toBe("");
  });
});
