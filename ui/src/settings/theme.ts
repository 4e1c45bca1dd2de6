// The theme on the page: `data-theme` on <html> is always "light" or "dark" (the stylesheets
// key their dark colours on it), resolved from the setting and, for "system", from the
// desktop's preference, followed live.
import type { Theme } from "../bindings/Theme";

const DARK = "(prefers-color-scheme: dark)";
let chosen: Theme = "system";
let following: MediaQueryList | null = null;

function resolve(theme: Theme): "light" | "dark" {
  if (theme !== "system") return theme;
  return typeof window !== "undefined" && window.matchMedia?.(DARK).matches ? "dark" : "light";
}

function paint(): void {
  document.documentElement.dataset.theme = resolve(chosen);
}

/** Applies `theme` now, and keeps "system" in step with the desktop. */
export function applyTheme(theme: Theme): void {
  chosen = theme;
  paint();
  if (!following && typeof window !== "undefined" && window.matchMedia) {
    following = window.matchMedia(DARK);
    following.addEventListener("change", paint);
  }
}

export { resolve as resolvedTheme };
