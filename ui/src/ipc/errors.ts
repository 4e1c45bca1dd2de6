// Commands reject with a typed `Problem` (or a `CallError` that carries one); `errorMessage`
// turns whatever was thrown into words to show, in the UI's language (i18n/problem.ts).
import type { CallError } from "../bindings/CallError";
import i18n from "../i18n";
import { isProblem, problemText } from "../i18n/problem";

/** The rejection as the `CallError` a call command rejects with, or null for any other. */
export function asCallError(error: unknown): CallError | null {
  if (typeof error !== "object" || error === null) return null;
  const e = error as Partial<CallError>;
  return isProblem(e.problem) && Array.isArray(e.diagnoses) ? (error as CallError) : null;
}

/** Turns a rejection (a Problem or CallError from Rust, an Error from the JS side) into a sentence. */
export function errorMessage(error: unknown): string {
  if (isProblem(error)) return problemText(error);
  if (error && typeof error === "object" && "problem" in error && isProblem(error.problem)) {
    return problemText(error.problem);
  }
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
