import { afterEach, describe, expect, it } from "vitest";
import { englishStringTranslator, TranslatableString } from "@rjsf/utils";
import { applyLanguage } from "../i18n";
import { translateRjsf } from "./rjsfStrings";

describe("translateRjsf", () => {
  afterEach(() => applyLanguage("en"));

  it("says in English exactly what RJSF says, parameters included", () => {
    for (const text of Object.values(TranslatableString)) {
      expect(translateRjsf(text, ["a", "b", "c"])).toBe(englishStringTranslator(text, ["a", "b", "c"]));
    }
  });

  it("speaks the UI's language", () => {
    applyLanguage("zh-Hans");
    expect(translateRjsf(TranslatableString.MoveUpButton)).toBe("上移");
    expect(translateRjsf(TranslatableString.OptionPrefix, ["2"])).toBe("选项 2");
    // The default value of a new property is data, not a label: left as RJSF has it.
    expect(translateRjsf(TranslatableString.NewStringDefault)).toBe("New Value");
  });
});
