import { afterEach, describe, expect, it } from "vitest";
import i18n, { applyLanguage } from ".";

describe("translations", () => {
  afterEach(() => applyLanguage("en"));

  it("picks the plural form of each language and switches at once", () => {
    expect(i18n.t("common:frames", { count: 1 })).toBe("1 frame");
    expect(i18n.t("common:frames", { count: 3 })).toBe("3 frames");
    applyLanguage("zh-Hans");
    expect(i18n.t("common:frames", { count: 1 })).toBe("1 帧");
    expect(i18n.t("common:cancel")).toBe("取消");
    expect(document.documentElement.lang).toBe("zh-Hans");
  });
});
