// Which of the shipped languages the UI shows: the one chosen in Settings, or for "system" the
// first of the desktop's languages Periscope speaks (English when it speaks none of them).
import type { Language } from "../bindings/Language";

/** The languages the UI ships, as i18next knows them. */
export const SHIPPED = ["en", "zh-Hans"] as const;
export type Shipped = (typeof SHIPPED)[number];

/**
 * The shipped language for one BCP 47 tag, or null. Every Chinese tag maps to Simplified
 * Chinese: a reader of Traditional Chinese reads it far more easily than English.
 */
function shippedFor(tag: string): Shipped | null {
  const primary = tag.toLowerCase().split(/[-_]/)[0];
  if (primary === "zh") return "zh-Hans";
  if (primary === "en") return "en";
  return null;
}

export function resolveLanguage(setting: Language, systemLanguages: readonly string[]): Shipped {
  if (setting !== "system") return setting;
  for (const tag of systemLanguages) {
    const shipped = shippedFor(tag);
    if (shipped) return shipped;
  }
  return "en";
}
