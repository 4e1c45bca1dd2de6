// A live log's scrolling list (the console, the HTTP exchanges): newest at the bottom and kept
// in view while the user is there (useFollowTail.ts); past WINDOWED_FROM rows, only the rows in
// sight are in the DOM, so a console flooded with thousands of lines opens and scrolls at once.
import { useVirtualizer } from "@tanstack/react-virtual";
import { Fragment, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { WINDOWED_FROM } from "./ItemList";
import { useFollowTail } from "./useFollowTail";

/** Rows drawn beyond each edge of the view, so a fast scroll shows rows, not gaps. */
const OVERSCAN = 16;
/** How near the bottom counts as at it (following), in px. */
const FOLLOW_SLACK = 24;

interface Props<T> {
  items: readonly T[];
  keyOf: (item: T) => string | number;
  render: (item: T) => ReactNode;
  /** A row's height before it is measured, in px (rows may wrap: each is measured once drawn). */
  estimate: number;
  /** The scrolling element's class. */
  className: string;
  /** Drawn above the rows, inside the scroll (older entries not kept). */
  before?: ReactNode;
  /** Drawn instead of the rows when there are none. */
  empty: ReactNode;
}

export function FollowedList<T>({ items, keyOf, render, estimate, className, before, empty }: Props<T>) {
  const windowed = items.length >= WINDOWED_FROM;
  const scroller = useRef<HTMLDivElement | null>(null);
  const rowsRef = useRef<HTMLDivElement>(null);
  /** Where the rows start in the scrolled content (below `before`), in px. */
  const [margin, setMargin] = useState(0);
  // The virtualizer is always there (a hook), but counts rows only while the list is windowed:
  // a short list draws every row, so the browser's find and the tests see them all.
  // The compiler leaves this component unmemoised (the virtualizer's functions change as it
  // scrolls): it re-renders on each scroll of the virtualizer's own state, which is the point.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: windowed ? items.length : 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => estimate,
    overscan: OVERSCAN,
    scrollMargin: margin,
    getItemKey: (index) => keyOf(items[index] as T),
  });
  const totalSize = virtualizer.getTotalSize();
  // Measured rows change the list's height after it was scrolled to the end: that is growth too.
  const { ref: followRef, onScroll } = useFollowTail(`${items.length}:${windowed ? totalSize : 0}`, FOLLOW_SLACK);
  const setScroller = (element: HTMLDivElement | null) => {
    scroller.current = element;
    followRef.current = element;
  };
  const hasBefore = Boolean(before);
  useLayoutEffect(() => {
    const rows = rowsRef.current;
    const element = scroller.current;
    if (!rows || !element) return;
    setMargin(rows.getBoundingClientRect().top - element.getBoundingClientRect().top + element.scrollTop);
  }, [hasBefore, windowed]);

  return (
    <div className={className} ref={setScroller} onScroll={onScroll}>
      {before}
      {items.length === 0 ? (
        empty
      ) : !windowed ? (
        <div ref={rowsRef}>{items.map((item) => <Fragment key={keyOf(item)}>{render(item)}</Fragment>)}</div>
      ) : (
        <div ref={rowsRef} data-windowed="true" style={{ height: totalSize, position: "relative" }}>
          {virtualizer.getVirtualItems().map((row) => (
            <div
              key={row.key}
              role="none"
              data-index={row.index}
              ref={virtualizer.measureElement}
              style={{ position: "absolute", top: 0, left: 0, right: 0, transform: `translateY(${row.start - margin}px)` }}
            >
              {render(items[row.index] as T)}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
