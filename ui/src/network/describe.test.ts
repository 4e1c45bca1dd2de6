import { describe, expect, it } from "vitest";
import { statusClass, urlPath } from "./describe";

describe("exchange display", () => {
  it("colours statuses by class", () => {
    expect(statusClass(null)).toBe("failed");
    expect(statusClass(101)).toBe("informational");
    expect(statusClass(202)).toBe("success");
    expect(statusClass(307)).toBe("redirect");
    expect(statusClass(404)).toBe("client-error");
    expect(statusClass(503)).toBe("server-error");
  });

  it("shows the path and query of a URL", () => {
    expect(urlPath("https://example.com/mcp?session=1")).toBe("/mcp?session=1");
    expect(urlPath("https://example.com")).toBe("/");
    expect(urlPath("not a url")).toBe("not a url");
  });
});
