import { describe, expect, it } from "vitest";
import cases from "./fixtures/hidden-text.json";
import { hasHidden, textParts, visibleText } from "./hiddenText";

describe("hidden text", () => {
  // The engine's hidden_text.rs reads the same file: the app and the CLI mark alike.
  for (const { name, text, marked } of cases) {
    it(name, () => {
      expect(visibleText(text)).toBe(marked);
      expect(hasHidden(text)).toBe(marked !== text);
    });
  }

  it("decodes a tag run into what it spells", () => {
    const tags = [..."Hi there"].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join("");
    const parts = textParts(`ok${tags}`);
    expect(parts).toEqual([
      { kind: "plain", text: "ok" },
      { kind: "hidden", hidden: "tag", codePoints: [...tags].map((c) => c.codePointAt(0)), spells: "Hi there" },
    ]);
  });
});
