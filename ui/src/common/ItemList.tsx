import { useVirtualizer } from "@tanstack/react-virtual";
import { useLayoutEffect, useRef, useState, type ReactNode } from "react";

/**
 * Past this many items a list draws only the rows in sight (and a few beyond): a server with
 * 20 000 tools lists as fast as one with 20. Below it every row is in the DOM, so the browser's
 * find, the keyboard and the end-to-end tests see them all.
 */
export const WINDOWED_FROM = 200;
/** A row's height before it is measured: a name and a line under it (`.item`). */
const ROW_ESTIMATE = 44;
/** Rows drawn beyond each edge of the view, so a fast scroll shows rows, not gaps. */
const OVERSCAN = 10;

interface Props<T> {
  items: readonly T[];
  keyOf: (item: T) => string;
  /** The row: an `<li>`'s content (the item's button). */
  render: (item: T) => ReactNode;
  label: string;
  /** The key of the selected item, kept in view when the list is windowed. */
  selected?: string | null;
}

/**
 * A list of a server's items (tools, prompts, resources) inside the scrolling `.split-list`:
 * every row while the list is short, only those in sight once it is long.
 */
export function ItemList<T>({ items, keyOf, render, label, selected }: Props<T>) {
  if (items.length < WINDOWED_FROM) {
    return (
      <ul className="item-list" aria-label={label}>
        {items.map((item) => (
          <li key={keyOf(item)}>{render(item)}</li>
        ))}
      </ul>
    );
  }
  return <WindowedItems items={items} keyOf={keyOf} render={render} label={label} selected={selected} />;
}

function WindowedItems<T>({ items, keyOf, render, label, selected }: Props<T>) {
  const listRef = useRef<HTMLUListElement>(null);
  // The list scrolls with what sits above it in its column (the header, the filter): the
  // virtualizer reads that column's scroll and knows where in it the list starts.
  const [scroller, setScroller] = useState<HTMLElement | null>(null);
  const [margin, setMargin] = useState(0);
  useLayoutEffect(() => {
    const list = listRef.current;
    const parent = list?.closest<HTMLElement>(".split-list") ?? list?.parentElement ?? null;
    setScroller(parent);
    if (list && parent) {
      setMargin(list.getBoundingClientRect().top - parent.getBoundingClientRect().top + parent.scrollTop);
    }
  }, []);
  // The compiler leaves this component unmemoised (the virtualizer's functions change as it
  // scrolls): it re-renders on each scroll of the virtualizer's own state, which is the point.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller,
    estimateSize: () => ROW_ESTIMATE,
    overscan: OVERSCAN,
    scrollMargin: margin,
    getItemKey: (index) => keyOf(items[index] as T),
  });
  const selectedIndex = selected == null ? -1 : items.findIndex((item) => keyOf(item) === selected);
  // A selection made elsewhere (the palette, a saved call) is scrolled to once.
  const shown = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (selectedIndex < 0 || shown.current === selected || !scroller) return;
    shown.current = selected ?? null;
    virtualizer.scrollToIndex(selectedIndex, { align: "auto" });
  }, [selectedIndex, selected, scroller, virtualizer]);
  const rows = virtualizer.getVirtualItems();
  return (
    <ul
      ref={listRef}
      className="item-list windowed"
      aria-label={label}
      data-windowed="true"
      style={{ height: virtualizer.getTotalSize(), position: "relative" }}
    >
      {rows.map((row) => {
        const item = items[row.index] as T;
        return (
          <li
            key={row.key}
            data-index={row.index}
            ref={virtualizer.measureElement}
            aria-setsize={items.length}
            aria-posinset={row.index + 1}
            style={{ position: "absolute", top: 0, left: 0, right: 0, transform: `translateY(${row.start - margin}px)` }}
          >
            {render(item)}
          </li>
        );
      })}
    </ul>
  );
}
