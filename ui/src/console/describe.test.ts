import { describe, expect, it } from "vitest";
import { describeNotification } from "./describe";

describe("console entries", () => {
  it("describes notifications in words", () => {
    expect(describeNotification({ kind: "resource_updated", uri: "demo://x" })).toBe("Resource updated: demo://x");
    expect(
      describeNotification({ kind: "progress", token: "t", progress: 1, total: 3, message: "step 1 of 3" }),
    ).toBe('Progress 1/3: step 1 of 3 (token "t")');
    expect(describeNotification({ kind: "other", method: "notifications/custom", params: null })).toBe(
      "notifications/custom",
    );
  });
});
