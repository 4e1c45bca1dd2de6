import { describe, expect, it } from "vitest";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { neededElicitations } from "./UrlElicitationRequired";

describe("neededElicitations", () => {
  it("reads the URL elicitations of a -32042 error's data", () => {
    const data: JsonValue = {
      elicitations: [
        { mode: "url", elicitationId: "e1", url: "https://example.com/a", message: "Sign in" },
        { mode: "url", url: "https://example.com/b" },
      ],
    };
    expect(neededElicitations(data)).toEqual([
      { elicitationId: "e1", url: "https://example.com/a", message: "Sign in" },
      { elicitationId: "", url: "https://example.com/b", message: "" },
    ]);
  });

  it("skips what it cannot read instead of failing", () => {
    expect(neededElicitations(null)).toEqual([]);
    expect(neededElicitations({ elicitations: "nope" })).toEqual([]);
    expect(neededElicitations({ elicitations: [1, null, { url: 3 }, { url: "https://ok.test/" }] })).toEqual([
      { elicitationId: "", url: "https://ok.test/", message: "" },
    ]);
  });
});
