import { describe, expect, it } from "vitest";
import { ID_SHOWN_CHARS, shownId } from "./idText";

describe("shownId", () => {
  it("shows a short id whole", () => {
    expect(shownId("42")).toBe("42");
    expect(shownId("12345678")).toBe("12345678");
  });

  it("shows a long id's end, where ids of one session differ", () => {
    expect(shownId("1099511627776")).toBe("…1627776");
    expect(shownId("1099511627777")).toBe("…1627777");
    expect(shownId("1099511627776")).toHaveLength(ID_SHOWN_CHARS);
    expect(shownId('"3f2a9c1e-77b0-4d2e-9a51-0c6d2e8f1b44"')).toBe('…8f1b44"');
  });
});
