// The settings in force on the UI side: read once at start, replaced on save. Other views read
// them (the server form's default era) without another round trip.
import type { AppSettings } from "../bindings/AppSettings";
import i18n, { applyLanguage } from "../i18n";
import { resolveLanguage } from "../i18n/language";
import { applyTheme } from "./theme";

let current: AppSettings = { request_timeout_s: 60, default_era: "auto", theme: "system", language: "system" };
/** The desktop's languages, most preferred first (read by the Rust side from the locale). */
let system: readonly string[] = typeof navigator === "undefined" ? [] : navigator.languages;

export function appSettings(): AppSettings {
  return current;
}

export function setAppSettings(next: AppSettings): void {
  current = next;
  applyTheme(next.theme);
  applyLanguage(resolveLanguage(next.language, system));
}

export function setSystemLanguages(languages: readonly string[]): void {
  system = languages;
}

export function systemLanguages(): readonly string[] {
  return system;
}

/** Why the timeout field cannot be saved, or null (the same bounds the Rust side checks). */
export function timeoutProblem(seconds: number): string | null {
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 3600) {
    return i18n.t("settings:connections.timeoutRange");
  }
  return null;
}
