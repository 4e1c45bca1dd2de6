// Where a list taller than a browser can lay out scrolls to. WebKit caps an element's height
// near 33.5 million px (2^25 px: layout units are 1/64 px in an int32), so 28 px rows stop at
// ~1.19 million: a bigger list's end would be out of reach. The list's position is kept in
// "list px" (row N starts at N × row height, for any N), and the scroll element holds a spacer
// of at most MAX_SPACER px whose scroll position stands for the same fraction of the list.
// Below the cap the two are the same and scrolling is the browser's own; above it, moves by a
// distance (wheel, keys) are made in list px and the scrollbar follows, while a drag of the
// scrollbar (or a script setting scrollTop) is read as a fraction. Pure functions: tested at
// 10 million rows in scale.test.ts.

/**
 * The tallest spacer the list makes, in px: below WebKit's and Chromium's 2^25 px and
 * Firefox's ~17.9 million px, and at most 2^24 so that every whole px of it is exact in the
 * compositor's 32-bit floats.
 */
export const MAX_SPACER = 16_000_000;

/** A list of `rows` rows of `rowHeight` px seen through a viewport `viewport` px tall. */
export interface ListGeometry {
  rows: number;
  rowHeight: number;
  viewport: number;
}

/** The list's full height in list px. */
export const contentHeight = (g: ListGeometry): number => Math.max(0, g.rows) * g.rowHeight;

/** The height of the spacer in the scroll element (px): the list's, capped. */
export const spacerHeight = (g: ListGeometry): number => Math.min(contentHeight(g), MAX_SPACER);

/** Whether the spacer stands for a taller list (scrolling is then mapped). */
export const isScaled = (g: ListGeometry): boolean => contentHeight(g) > MAX_SPACER;

/** The furthest the list's top can be scrolled, in list px (0 when it fits). */
export const maxOffset = (g: ListGeometry): number => Math.max(0, contentHeight(g) - g.viewport);

/** The furthest the scroll element can scroll, in px. */
export const maxScrollTop = (g: ListGeometry): number => Math.max(0, spacerHeight(g) - g.viewport);

export const clampOffset = (g: ListGeometry, offset: number): number =>
  Math.min(maxOffset(g), Math.max(0, Number.isFinite(offset) ? offset : 0));

/** The list position a scroll element's scrollTop stands for (the same fraction of the way). */
export function offsetOfScrollTop(g: ListGeometry, scrollTop: number): number {
  if (!isScaled(g)) return clampOffset(g, scrollTop);
  const max = maxScrollTop(g);
  if (max === 0) return 0;
  return clampOffset(g, (Math.min(max, Math.max(0, scrollTop)) / max) * maxOffset(g));
}

/** The scrollTop that stands for a list position. */
export function scrollTopOfOffset(g: ListGeometry, offset: number): number {
  const at = clampOffset(g, offset);
  if (!isScaled(g)) return at;
  const max = maxOffset(g);
  return max === 0 ? 0 : (at / max) * maxScrollTop(g);
}

/** The rows at least partly in sight at `offset`, widened by `overscan` each side (`last` < `first` when none). */
export function rowsInSight(g: ListGeometry, offset: number, overscan = 0): { first: number; last: number } {
  if (g.rows <= 0 || g.rowHeight <= 0) return { first: 0, last: -1 };
  const top = clampOffset(g, offset);
  const first = Math.floor(top / g.rowHeight);
  const last = Math.ceil((top + g.viewport) / g.rowHeight) - 1;
  return { first: Math.max(0, first - overscan), last: Math.min(g.rows - 1, Math.max(first, last) + overscan) };
}

export type Align = "auto" | "center" | "start" | "end";

/**
 * The list position that shows row `index`: "auto" moves as little as it takes (not at all
 * when the row is in sight already), "center" puts it in the middle.
 */
export function offsetShowing(g: ListGeometry, offset: number, index: number, align: Align): number {
  const row = Math.min(Math.max(0, index), Math.max(0, g.rows - 1));
  const top = row * g.rowHeight;
  const bottom = top + g.rowHeight;
  const view = Math.max(g.rowHeight, g.viewport);
  switch (align) {
    case "start":
      return clampOffset(g, top);
    case "end":
      return clampOffset(g, bottom - view);
    case "center":
      return clampOffset(g, top - (view - g.rowHeight) / 2);
    case "auto":
      if (top < offset) return clampOffset(g, top);
      if (bottom > offset + view) return clampOffset(g, bottom - view);
      return clampOffset(g, offset);
  }
}

/** Whether the list is scrolled to its end (within `slack` list px). */
export const atEnd = (g: ListGeometry, offset: number, slack: number): boolean => maxOffset(g) - offset <= slack;

/** A wheel event's vertical distance in px (lines and pages converted as browsers do). */
export function wheelPixels(deltaY: number, deltaMode: number, rowHeight: number, viewport: number): number {
  if (deltaMode === 1) return deltaY * rowHeight; // DOM_DELTA_LINE
  if (deltaMode === 2) return deltaY * viewport; // DOM_DELTA_PAGE
  return deltaY;
}
