import { useVirtualizer } from "@tanstack/react-virtual";
import { useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from "react";
import type { Flag } from "../bindings/Flag";
import type { RowsView } from "./filter";
import type { RoundIndex } from "./rounds";
import { TrafficHeader, TrafficRow } from "./TrafficRow";
import { useFollowTail } from "../common/useFollowTail";

export const ROW_HEIGHT = 28;

interface Props {
  view: RowsView;
  flags: ReadonlyMap<number, Flag[]>;
  rounds: RoundIndex;
  selectedSeq: number | null;
  follow: boolean;
  onSelect: (seq: number) => void;
  onFollowChange: (follow: boolean) => void;
  /** What the list says when it shows no row (no frames yet, or none passing the filter). */
  empty: ReactNode;
}

/**
 * The frames, virtualized: only the rows in sight are in the DOM, so 100 000 frames scroll
 * like 100. With `follow` on, the newest frame stays in view; scrolling up turns it off and
 * scrolling back to the bottom turns it on again.
 */
export function TrafficList({ view, flags, rounds, selectedSeq, follow, onSelect, onFollowChange, empty }: Props) {
  const { ref: scrollRef, onScroll } = useFollowTail(view.count, ROW_HEIGHT / 2, follow, onFollowChange);
  const headerRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- no React Compiler in this app; the virtualizer re-renders through its own state.
  const virtualizer = useVirtualizer({
    count: view.count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 16,
  });

  // Bring a selected frame into view once (e.g. one picked from the Network tab), unless the
  // list is following the newest frame.
  const scrolledTo = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (selectedSeq === null || follow || scrolledTo.current === selectedSeq) return;
    const index = view.indexOfSeq(selectedSeq);
    if (index < 0) return;
    scrolledTo.current = selectedSeq;
    virtualizer.scrollToIndex(index, { align: "auto" });
  }, [selectedSeq, follow, view, virtualizer]);

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
    const current = selectedSeq === null ? -1 : view.indexOfSeq(selectedSeq);
    const next = event.key === "ArrowDown" ? Math.min(view.count - 1, current + 1) : Math.max(0, current - 1);
    const row = view.rowAt(next);
    if (row) {
      onSelect(row.seq);
      virtualizer.scrollToIndex(next, { align: "auto" });
    }
  };

  return (
    <div className="traffic-list" role="grid" aria-rowcount={view.count}>
      <TrafficHeader ref={headerRef} />
      <div className="traffic-scroll" ref={scrollRef} onScroll={onScroll} onKeyDown={onKeyDown} tabIndex={0}>
        <div className="traffic-sizer" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = view.rowAt(item.index);
            if (!row) return null;
            return (
              <TrafficRow
                key={row.seq}
                row={row}
                flags={flags.get(row.seq)}
                round={rounds.label(row.seq)}
                selected={row.seq === selectedSeq}
                onSelect={onSelect}
                top={item.start}
                height={ROW_HEIGHT}
              />
            );
          })}
        </div>
      </div>
      {view.count === 0 && <div className="traffic-empty">{empty}</div>}
    </div>
  );
}
