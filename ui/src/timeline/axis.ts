// The time axis counts from the first thing shown; its unit follows the zoom.
import type { TFunction } from "i18next";

/** A tick at `ms` after the origin, in seconds when the view is wider than 10 s. */
export function axisLabel(ms: number, widthUs: number, t: TFunction<"timeline">): string {
  if (widthUs > 10e6) return t("axis.s", { n: +(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1) });
  const digits = widthUs < 10_000 ? 2 : widthUs < 100_000 ? 1 : 0;
  return t("axis.ms", { n: +ms.toFixed(digits) });
}
