import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { flushSync } from "react-dom";
import type { RowWindow } from "./window";
import { TrafficHeader, TrafficRow, TrafficRowLoading } from "./TrafficRow";
import {
  atEnd,
  clampOffset,
  isScaled,
  maxOffset,
  offsetOfScrollTop,
  offsetShowing,
  rowsInSight,
  scrollTopOfOffset,
  spacerHeight,
  wheelPixels,
  type Align,
  type ListGeometry,
} from "./scale";

export const ROW_HEIGHT = 28;
/** Rows drawn beyond each edge of the view, so a fast scroll shows rows, not gaps. */
const OVERSCAN = 12;
/**
 * Rows are placed relative to a row whose index is a multiple of this: their offsets stay the
 * same (and their memoised elements untouched) while the list scrolls through a block, and stay
 * small numbers however far down the list is.
 */
const ANCHOR = 1024;
/** The view's height before it is laid out (tests, the first frame): a screenful. */
const UNMEASURED_VIEWPORT = 600;

interface Props {
  window: RowWindow;
  /** Rows the filter keeps. */
  count: number;
  selectedSeq: number | null;
  follow: boolean;
  onSelect: (seq: number) => void;
  onFollowChange: (follow: boolean) => void;
  /** Where a frame sits in the list (asked of the engine), or null when the filter hides it. */
  locate: (seq: number) => Promise<number | null>;
  /** What the list says when it shows no row (no frames yet, or none passing the filter). */
  empty: ReactNode;
}

/** What the event handlers need of the last render. */
interface Latest {
  geometry: ListGeometry;
  top: number;
  follow: boolean;
  onFollowChange: (follow: boolean) => void;
}

/**
 * The frames, virtualized over a window: only the rows in sight are in the DOM, and only the
 * pages around them are fetched, so a million frames scroll like a hundred. The position is
 * kept in list px (scale.ts), so a list of any length scrolls to its end even where the browser
 * caps an element's height. With `follow` on, the newest frame stays in view; scrolling up
 * turns it off and scrolling back to the bottom turns it on again.
 */
export function TrafficList({ window, count, selectedSeq, follow, onSelect, onFollowChange, locate, empty }: Props) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const headerRef = useRef<HTMLDivElement>(null);
  const [viewport, setViewport] = useState(0);
  /** The list's top, in list px (followed: the end). */
  const [offset, setOffset] = useState(0);
  const geometry: ListGeometry = { rows: count, rowHeight: ROW_HEIGHT, viewport: viewport || UNMEASURED_VIEWPORT };
  const top = follow ? maxOffset(geometry) : clampOffset(geometry, offset);
  // While following, the position is the end: remember it, so that turning follow off stays there.
  if (follow && offset !== top) setOffset(top);
  const latest = useRef<Latest>({ geometry, top, follow, onFollowChange });
  /** The scrollTop this list set last (its scroll event is not a move of the user's). */
  const expectedScrollTop = useRef<number | null>(null);
  /**
   * The scrollTop the list last saw or set, and its spacer's height then. Another scrollTop at a
   * render over the same spacer is a move of the user's
   * (the scrollbar, a script) whose scroll event has not come yet: rows that arrive in between
   * re-render the list, and the move must win over the position that render computed.
   */
  const seen = useRef<{ scrollTop: number; spacer: number } | null>(null);
  /** The frame last brought into view (or picked here: it is in view already). */
  const scrolledTo = useRef<number | null>(null);

  const pick = useCallback(
    (seq: number) => {
      scrolledTo.current = seq;
      onSelect(seq);
    },
    [onSelect],
  );

  /**
   * The user moved the list (wheel, keys, scrollbar): go there, and follow when at the end.
   * `now` (from scroll and wheel events) renders the rows before the browser paints the frame.
   */
  const moveTo = useCallback((to: number, now = false) => {
    const { geometry: g, follow: following, onFollowChange: followChanged } = latest.current;
    const next = clampOffset(g, to);
    latest.current.top = next;
    // A list whose rows are not counted yet (a record just opened at a frame) has no end to
    // be at: following stays as it was.
    const end = g.rows === 0 ? following : atEnd(g, next, ROW_HEIGHT / 2);
    // Following changes in the same render as the position: a render still following would
    // put the list back at the end.
    const apply = () => {
      if (end !== following) followChanged(end);
      setOffset(next);
    };
    if (now) flushSync(apply);
    else apply();
  }, []);

  const { first, last } = rowsInSight(geometry, top, OVERSCAN);
  const scrollTop = scrollTopOfOffset(geometry, top);
  const anchor = first - (first % ANCHOR);
  // Where row `anchor` sits in the spacer: the same place as in the list below the cap (so
  // the browser alone scrolls the rows), scrollTop plus its distance from the top above it.
  const shift = Math.round(scrollTop - top + anchor * ROW_HEIGHT);

  useLayoutEffect(() => {
    latest.current = { geometry, top, follow, onFollowChange };
    const element = scrollRef.current;
    if (!element) return;
    const spacer = spacerHeight(geometry);
    const before = seen.current;
    seen.current = { scrollTop: element.scrollTop, spacer };
    // A spacer of another height may have made the browser clamp scrollTop: not a move.
    if (before && before.spacer === spacer && Math.abs(element.scrollTop - before.scrollTop) >= 1) {
      // Moved since the list last looked, and not by the list: go where the user went (the
      // scroll event that follows finds the list there already).
      const to = offsetOfScrollTop(geometry, element.scrollTop);
      if (Math.abs(to - top) >= 0.5) {
        moveTo(to);
        return;
      }
    }
    // The scroll element follows the list's position (a no-op when the browser moved it there).
    if (Math.abs(element.scrollTop - scrollTop) >= 1) {
      expectedScrollTop.current = scrollTop;
      element.scrollTop = scrollTop;
      seen.current = { scrollTop: element.scrollTop, spacer };
    }
  });

  // Fetch the pages in sight (again when the record changed: `count` or the window's rows).
  useEffect(() => {
    window.need(first, last);
  });

  const onScroll = useCallback(() => {
    const element = scrollRef.current;
    if (!element) return;
    const expected = expectedScrollTop.current;
    expectedScrollTop.current = null;
    if (seen.current) seen.current.scrollTop = element.scrollTop;
    if (expected !== null && Math.abs(element.scrollTop - expected) < 1) return;
    // The scrollbar, a script, or (below the cap) the browser's own wheel and keys: the same
    // fraction of the list.
    const { geometry: g, top: now } = latest.current;
    const to = offsetOfScrollTop(g, element.scrollTop);
    if (Math.abs(to - now) >= 0.5) moveTo(to, true);
  }, [moveTo]);

  // Above the cap the wheel moves the list by its distance in list px (the spacer's px stand
  // for more); below it the browser scrolls as usual.
  useEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const onWheel = (event: WheelEvent) => {
      const { geometry: g, top: now } = latest.current;
      if (!isScaled(g) || event.ctrlKey || event.deltaY === 0) return;
      event.preventDefault();
      moveTo(now + wheelPixels(event.deltaY, event.deltaMode, g.rowHeight, g.viewport), true);
    };
    element.addEventListener("wheel", onWheel, { passive: false });
    return () => element.removeEventListener("wheel", onWheel);
  }, [moveTo]);

  // Bring a selected frame into view once (e.g. one picked from the Network tab, a toast or
  // the timeline), unless the list is following the newest frame.
  const show = useCallback(
    (index: number, align: Align) => {
      const { geometry: g, top: now } = latest.current;
      moveTo(offsetShowing(g, now, index, align));
    },
    [moveTo],
  );
  useLayoutEffect(() => {
    if (selectedSeq === null || follow || scrolledTo.current === selectedSeq) return;
    scrolledTo.current = selectedSeq;
    const held = window.indexOfSeq(selectedSeq);
    if (held >= 0) {
      show(held, "auto");
      return;
    }
    void locate(selectedSeq).then((index) => {
      if (index !== null && scrolledTo.current === selectedSeq) show(index, "center");
    });
  }, [selectedSeq, follow, window, show, locate]);

  // The view's height, and the column titles kept over their columns when the list shows a
  // classic scrollbar.
  useLayoutEffect(() => {
    const element = scrollRef.current;
    const header = headerRef.current;
    if (!element) return;
    const measure = () => {
      setViewport(element.clientHeight);
      if (header) header.style.paddingRight = `${12 + element.offsetWidth - element.clientWidth}px`;
    };
    measure();
    const observer = typeof ResizeObserver === "function" ? new ResizeObserver(measure) : null;
    observer?.observe(element);
    return () => observer?.disconnect();
  }, []);

  const onKeyDown = (event: KeyboardEvent) => {
    const page = Math.max(ROW_HEIGHT, geometry.viewport - ROW_HEIGHT);
    switch (event.key) {
      case "ArrowDown":
      case "ArrowUp": {
        event.preventDefault();
        const down = event.key === "ArrowDown";
        const current = selectedSeq === null ? -1 : window.indexOfSeq(selectedSeq);
        // Nothing selected in the rows held: start from the rows in sight.
        const inSight = rowsInSight(geometry, top);
        const next =
          current < 0 ? (down ? inSight.first : inSight.last) : Math.min(count - 1, Math.max(0, current + (down ? 1 : -1)));
        const row = window.rowAt(next);
        if (row) {
          scrolledTo.current = row.seq;
          onSelect(row.seq);
          show(next, "auto");
        }
        return;
      }
      case "PageDown":
      case "PageUp":
        event.preventDefault();
        moveTo(top + (event.key === "PageDown" ? page : -page));
        return;
      case "Home":
        event.preventDefault();
        moveTo(0);
        return;
      case "End":
        event.preventDefault();
        moveTo(maxOffset(geometry));
        return;
    }
  };

  const rows: ReactNode[] = [];
  for (let index = first; index <= last; index += 1) {
    const row = window.rowAt(index);
    const at = (index - anchor) * ROW_HEIGHT;
    rows.push(
      row ? (
        <TrafficRow key={row.seq} row={row} selected={row.seq === selectedSeq} onSelect={pick} top={at} height={ROW_HEIGHT} />
      ) : (
        <TrafficRowLoading key={`loading-${index}`} top={at} height={ROW_HEIGHT} />
      ),
    );
  }

  return (
    <div className="traffic-list" role="grid" aria-rowcount={count}>
      <TrafficHeader ref={headerRef} />
      <div className="traffic-scroll" ref={scrollRef} onScroll={onScroll} onKeyDown={onKeyDown} tabIndex={0}>
        <div className="traffic-sizer" style={{ height: spacerHeight(geometry) }} data-testid="traffic-sizer">
          <div className="traffic-rows" style={{ transform: `translateY(${shift}px)` }}>
            {rows}
          </div>
        </div>
      </div>
      {count === 0 && <div className="traffic-empty">{empty}</div>}
    </div>
  );
}
