import { describe, expect, it } from "vitest";
import {
  atEnd,
  clampOffset,
  contentHeight,
  isScaled,
  MAX_SPACER,
  maxOffset,
  maxScrollTop,
  offsetOfScrollTop,
  offsetShowing,
  rowsInSight,
  scrollTopOfOffset,
  spacerHeight,
  wheelPixels,
  type ListGeometry,
} from "./scale";

const TEN_MILLION: ListGeometry = { rows: 10_000_000, rowHeight: 28, viewport: 700 };
const SMALL: ListGeometry = { rows: 1000, rowHeight: 28, viewport: 700 };
/** WebKit's tallest element, in px: layout units are int32 of 1/64 px, so 2^31 / 64 = 2^25 (less a little). */
const WEBKIT_MAX_HEIGHT = 33_554_428;

describe("the list's scale above the browser's height cap", () => {
  it("keeps the spacer under every engine's cap while the list is 280 million px tall", () => {
    expect(contentHeight(TEN_MILLION)).toBe(280_000_000);
    expect(isScaled(TEN_MILLION)).toBe(true);
    expect(spacerHeight(TEN_MILLION)).toBe(MAX_SPACER);
    expect(MAX_SPACER).toBeLessThan(WEBKIT_MAX_HEIGHT);
    expect(MAX_SPACER).toBeLessThanOrEqual(2 ** 24);
  });

  it("maps the scrollbar's ends onto the list's ends, and its middle onto the middle", () => {
    const g = TEN_MILLION;
    expect(offsetOfScrollTop(g, 0)).toBe(0);
    expect(offsetOfScrollTop(g, maxScrollTop(g))).toBe(maxOffset(g));
    // Past the end (a script setting scrollTop = 1e9): the end.
    expect(offsetOfScrollTop(g, 1e9)).toBe(maxOffset(g));
    expect(offsetOfScrollTop(g, -5)).toBe(0);
    expect(offsetOfScrollTop(g, maxScrollTop(g) / 2)).toBeCloseTo(maxOffset(g) / 2, 3);
  });

  it("shows the last row, row 9 999 999, at the scrollbar's end", () => {
    const g = TEN_MILLION;
    const { first, last } = rowsInSight(g, offsetOfScrollTop(g, maxScrollTop(g)));
    expect(last).toBe(9_999_999);
    expect(first).toBe(10_000_000 - Math.ceil(700 / 28));
  });

  it("reaches every row: any row N is in sight at the position that shows it, and back again through scrollTop", () => {
    const g = TEN_MILLION;
    for (const n of [0, 1, 27, 1_190_000, 1_198_372, 5_000_001, 9_999_974, 9_999_998, 9_999_999]) {
      const offset = offsetShowing(g, 0, n, "center");
      const { first, last } = rowsInSight(g, offset);
      expect(first).toBeLessThanOrEqual(n);
      expect(last).toBeGreaterThanOrEqual(n);
      // The scroll element's position for it lies in the spacer, and reads back as (nearly) the same place.
      const scrollTop = scrollTopOfOffset(g, offset);
      expect(scrollTop).toBeGreaterThanOrEqual(0);
      expect(scrollTop).toBeLessThanOrEqual(maxScrollTop(g));
      expect(Math.abs(offsetOfScrollTop(g, scrollTop) - offset)).toBeLessThan(1e-3);
    }
  });

  it("moves a whole px of scrollbar by less than a row's height at 10 million rows (a drag reaches every row)", () => {
    const g = TEN_MILLION;
    const step = offsetOfScrollTop(g, 1001) - offsetOfScrollTop(g, 1000);
    expect(step).toBeGreaterThan(1);
    expect(step).toBeLessThan(g.rowHeight);
  });

  it("is the browser's own scrolling below the cap (list px are spacer px)", () => {
    expect(isScaled(SMALL)).toBe(false);
    expect(spacerHeight(SMALL)).toBe(28_000);
    for (const top of [0, 1, 13.5, 1000, maxScrollTop(SMALL)]) {
      expect(offsetOfScrollTop(SMALL, top)).toBe(top);
      expect(scrollTopOfOffset(SMALL, top)).toBe(top);
    }
    // 1.19 million rows of 28 px are still under WebKit's cap, but over the spacer's.
    expect(isScaled({ rows: 571_428, rowHeight: 28, viewport: 700 })).toBe(false);
    expect(isScaled({ rows: 1_190_000, rowHeight: 28, viewport: 700 })).toBe(true);
  });

  it("keeps the position in the list, whatever is asked", () => {
    expect(clampOffset(TEN_MILLION, -1)).toBe(0);
    expect(clampOffset(TEN_MILLION, Number.NaN)).toBe(0);
    expect(clampOffset(TEN_MILLION, 1e12)).toBe(maxOffset(TEN_MILLION));
    // A list shorter than the view does not scroll.
    const short = { rows: 3, rowHeight: 28, viewport: 700 };
    expect(maxOffset(short)).toBe(0);
    expect(scrollTopOfOffset(short, 50)).toBe(0);
    expect(rowsInSight(short, 0)).toEqual({ first: 0, last: 2 });
    expect(rowsInSight({ rows: 0, rowHeight: 28, viewport: 700 }, 0)).toEqual({ first: 0, last: -1 });
  });

  it("widens the rows in sight by the overscan, within the list", () => {
    const g = TEN_MILLION;
    expect(rowsInSight(g, 0, 12)).toEqual({ first: 0, last: 24 + 12 });
    expect(rowsInSight(g, maxOffset(g), 12).last).toBe(9_999_999);
    expect(rowsInSight(g, 28 * 5_000_000, 12)).toEqual({ first: 5_000_000 - 12, last: 5_000_024 + 12 });
  });

  it("shows a row with the least move (auto), in the middle (center), or at either edge", () => {
    const g = TEN_MILLION;
    const at = 28 * 1000;
    // In sight already: no move.
    expect(offsetShowing(g, at, 1005, "auto")).toBe(at);
    // Above: to the top; below: to the bottom.
    expect(offsetShowing(g, at, 900, "auto")).toBe(28 * 900);
    expect(offsetShowing(g, at, 2000, "auto")).toBe(28 * 2001 - 700);
    expect(offsetShowing(g, at, 2000, "start")).toBe(28 * 2000);
    expect(offsetShowing(g, at, 2000, "end")).toBe(28 * 2001 - 700);
    expect(offsetShowing(g, at, 2000, "center")).toBe(28 * 2000 - (700 - 28) / 2);
    // The last row, centred, is as far as the list goes.
    expect(offsetShowing(g, 0, 9_999_999, "center")).toBe(maxOffset(g));
  });

  it("says when the list is at its end (following the newest row)", () => {
    const g = TEN_MILLION;
    expect(atEnd(g, maxOffset(g), 14)).toBe(true);
    expect(atEnd(g, maxOffset(g) - 10, 14)).toBe(true);
    expect(atEnd(g, maxOffset(g) - 28, 14)).toBe(false);
  });

  it("reads a wheel's lines and pages as px", () => {
    expect(wheelPixels(120, 0, 28, 700)).toBe(120);
    expect(wheelPixels(3, 1, 28, 700)).toBe(84);
    expect(wheelPixels(-1, 2, 28, 700)).toBe(-700);
  });
});
