// The settings in force on the UI side: read once at start, replaced on save. Other views read
// them (the server form's default era) without another round trip.
import type { AppSettings } from "../bindings/AppSettings";
import { applyTheme } from "./theme";

let current: AppSettings = { request_timeout_s: 60, default_era: "auto", theme: "system" };

export function appSettings(): AppSettings {
  return current;
}

export function setAppSettings(next: AppSettings): void {
  current = next;
  applyTheme(next.theme);
}

/** Why the timeout field cannot be saved, or null (the same bounds the Rust side checks). */
export function timeoutProblem(seconds: number): string | null {
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 3600) {
    return "Between 1 and 3600 seconds.";
  }
  return null;
}
