import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from "react";
import type { RowWindow } from "./window";
import { TrafficHeader, TrafficRow, TrafficRowLoading } from "./TrafficRow";
import { useFollowTail } from "../common/useFollowTail";

export const ROW_HEIGHT = 28;

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

/**
 * The frames, virtualized over a window: only the rows in sight are in the DOM, and only the
 * pages around them are fetched, so a million frames scroll like a hundred. With `follow` on,
 * the newest frame stays in view; scrolling up turns it off and scrolling back to the bottom
 * turns it on again.
 */
export function TrafficList({ window, count, selectedSeq, follow, onSelect, onFollowChange, locate, empty }: Props) {
  const { ref: scrollRef, onScroll } = useFollowTail(count, ROW_HEIGHT / 2, follow, onFollowChange);
  const headerRef = useRef<HTMLDivElement>(null);
  /** The frame last brought into view (or picked here: it is in view already). */
  const scrolledTo = useRef<number | null>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- no React Compiler in this app; the virtualizer re-renders through its own state.
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 16,
  });
  const items = virtualizer.getVirtualItems();
  const pick = useCallback(
    (seq: number) => {
      scrolledTo.current = seq;
      onSelect(seq);
    },
    [onSelect],
  );
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;

  // Fetch the pages in sight (again when the record changed: `count` or the window's rows).
  useEffect(() => {
    window.need(first, last);
  });

  // Bring a selected frame into view once (e.g. one picked from the Network tab or a toast),
  // unless the list is following the newest frame.
  useLayoutEffect(() => {
    if (selectedSeq === null || follow || scrolledTo.current === selectedSeq) return;
    scrolledTo.current = selectedSeq;
    const held = window.indexOfSeq(selectedSeq);
    if (held >= 0) {
      virtualizer.scrollToIndex(held, { align: "auto" });
      return;
    }
    void locate(selectedSeq).then((index) => {
      if (index !== null && scrolledTo.current === selectedSeq) virtualizer.scrollToIndex(index, { align: "center" });
    });
  }, [selectedSeq, follow, window, virtualizer, locate]);

  // Keep the column titles over their columns when the list shows a classic scrollbar.
  useLayoutEffect(() => {
    const element = scrollRef.current;
    const header = headerRef.current;
    if (!element || !header) return;
    const align = () => {
      header.style.paddingRight = `${12 + element.offsetWidth - element.clientWidth}px`;
    };
    align();
    const observer = typeof ResizeObserver === "function" ? new ResizeObserver(align) : null;
    observer?.observe(element);
    return () => observer?.disconnect();
  }, [scrollRef]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    event.preventDefault();
    const current = selectedSeq === null ? -1 : window.indexOfSeq(selectedSeq);
    const next = event.key === "ArrowDown" ? Math.min(count - 1, current + 1) : Math.max(0, current - 1);
    const row = window.rowAt(next);
    if (row) {
      scrolledTo.current = row.seq;
      onSelect(row.seq);
      virtualizer.scrollToIndex(next, { align: "auto" });
    }
  };

  return (
    <div className="traffic-list" role="grid" aria-rowcount={count}>
      <TrafficHeader ref={headerRef} />
      <div className="traffic-scroll" ref={scrollRef} onScroll={onScroll} onKeyDown={onKeyDown} tabIndex={0}>
        <div className="traffic-sizer" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const row = window.rowAt(item.index);
            if (!row) return <TrafficRowLoading key={`loading-${item.index}`} top={item.start} height={ROW_HEIGHT} />;
            return (
              <TrafficRow
                key={row.seq}
                row={row}
                selected={row.seq === selectedSeq}
                onSelect={pick}
                top={item.start}
                height={ROW_HEIGHT}
              />
            );
          })}
        </div>
      </div>
      {count === 0 && <div className="traffic-empty">{empty}</div>}
    </div>
  );
}
