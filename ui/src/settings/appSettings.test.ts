import { describe, expect, it } from "vitest";
import { appSettings, setAppSettings, timeoutProblem } from "./appSettings";
import { resolvedTheme } from "./theme";

describe("app settings", () => {
  it("refuses a timeout outside 1..3600 whole seconds, as the Rust side does", () => {
    expect(timeoutProblem(60)).toBeNull();
    expect(timeoutProblem(1)).toBeNull();
    expect(timeoutProblem(3600)).toBeNull();
    expect(timeoutProblem(0)).toBe("Between 1 and 3600 seconds.");
    expect(timeoutProblem(3601)).toBe("Between 1 and 3600 seconds.");
    expect(timeoutProblem(1.5)).toBe("Between 1 and 3600 seconds.");
    expect(timeoutProblem(Number(""))).toBe("Between 1 and 3600 seconds.");
  });

  it("paints the chosen theme on <html> and keeps it for other views", () => {
    setAppSettings({ request_timeout_s: 30, default_era: "legacy", theme: "dark", language: "system" });
    expect(document.documentElement.dataset.theme).toBe("dark");
    expect(appSettings().default_era).toBe("legacy");
    setAppSettings({ request_timeout_s: 30, default_era: "auto", theme: "light", language: "system" });
    expect(document.documentElement.dataset.theme).toBe("light");
  });

  it("resolves an explicit theme to itself", () => {
    expect(resolvedTheme("dark")).toBe("dark");
    expect(resolvedTheme("light")).toBe("light");
  });
});
