import { describe, expect, it } from "vitest";
import { resolveLanguage } from "./language";

describe("resolveLanguage", () => {
  it("takes the chosen language over the desktop's", () => {
    expect(resolveLanguage("en", ["zh-CN"])).toBe("en");
    expect(resolveLanguage("zh-Hans", ["en-US"])).toBe("zh-Hans");
  });

  it("follows the first desktop language it ships, else English", () => {
    expect(resolveLanguage("system", ["zh-CN"])).toBe("zh-Hans");
    expect(resolveLanguage("system", ["zh-TW", "en"])).toBe("zh-Hans");
    expect(resolveLanguage("system", ["de-DE", "zh-CN", "en"])).toBe("zh-Hans");
    expect(resolveLanguage("system", ["de-DE", "en-GB", "zh-CN"])).toBe("en");
    expect(resolveLanguage("system", ["fr-FR"])).toBe("en");
    expect(resolveLanguage("system", [])).toBe("en");
  });
});
