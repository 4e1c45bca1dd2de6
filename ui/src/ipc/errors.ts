// Commands reject with a user-readable string; `errorMessage` turns whatever was thrown into
// words to show.
import i18n from "../i18n";

/** Turns a rejection (a string from Rust, an Error from the JS side) into a sentence. */
export function errorMessage(error: unknown): string {
  if (typeof error === "string") return error || i18n.t("common:unknownError");
  if (error instanceof Error) return error.message || error.name;
  if (error && typeof error === "object" && "message" in error) {
    const message = (error as { message: unknown }).message;
    if (typeof message === "string") return message;
  }
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/** True when the page runs inside the Tauri webview (and so can call the Rust side). */
export function hasTauri(): boolean {
  return typeof window !== "undefined" && "__TAURI_INTERNALS__" in window;
}
