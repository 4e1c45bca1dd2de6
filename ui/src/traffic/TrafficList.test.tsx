import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { TrafficRow } from "../bindings/TrafficRow";
import { row } from "./rows.fixtures";
import { MAX_SPACER } from "./scale";
import { ROW_HEIGHT, TrafficList } from "./TrafficList";
import { RowWindow } from "./window";

afterEach(cleanup);

const TEN_MILLION = 10_000_000;
const settle = () => act(() => new Promise((r) => setTimeout(r, 0)));

/** A list over a record of `n` rows (seq = index + 1), with follow and selection held like the tab holds them. */
function List({ n, initialFollow = false, locate }: { n: number; initialFollow?: boolean; locate?: (seq: number) => Promise<number | null> }) {
  const [follow, setFollow] = useState(initialFollow);
  const [selected, setSelected] = useState<number | null>(null);
  const [, setTick] = useState(0);
  const [window] = useState(() => {
    const w = new RowWindow(
      async (offset: number, limit: number): Promise<TrafficRow[]> =>
        Array.from({ length: Math.max(0, Math.min(limit, n - offset)) }, (_, i) => row(offset + i + 1)),
      () => setTick((t) => t + 1),
    );
    w.changed(n);
    return w;
  });
  return (
    <>
      <TrafficList
        window={window}
        count={n}
        selectedSeq={selected}
        follow={follow}
        onSelect={setSelected}
        onFollowChange={setFollow}
        locate={locate ?? (async (seq) => seq - 1)}
        empty={null}
      />
      <button type="button" data-testid="jump" onClick={() => (setFollow(false), setSelected(7_654_322))} />
      <output data-testid="follow">{String(follow)}</output>
    </>
  );
}

const scroller = () => document.querySelector(".traffic-scroll") as HTMLDivElement;
const seqs = () => screen.queryAllByTestId("traffic-row").map((r) => Number(r.getAttribute("data-seq")));

/**
 * jsdom lays nothing out: give every element a settable scrollTop, clamped like a browser's by
 * its first child's height (the list's spacer), from before the list's first render.
 */
const tops = new WeakMap<Element, number>();
const nativeScrollTop = Object.getOwnPropertyDescriptor(Element.prototype, "scrollTop");
beforeEach(() => {
  Object.defineProperty(Element.prototype, "scrollTop", {
    configurable: true,
    get(this: Element) {
      return tops.get(this) ?? 0;
    },
    set(this: Element, value: number) {
      const spacer = Number.parseFloat((this.firstElementChild as HTMLElement | null)?.style.height ?? "") || 0;
      tops.set(this, Math.max(0, Math.min(spacer - 600, value)));
    },
  });
});
afterEach(() => {
  if (nativeScrollTop) Object.defineProperty(Element.prototype, "scrollTop", nativeScrollTop);
});

/** The scroll event of a move to the top comes: the list stops following and shows row 1 there. */
async function scrolledToTheTop(element: HTMLDivElement) {
  fireEvent.scroll(element);
  await settle();
  await settle();
  expect(screen.getByTestId("follow").textContent).toBe("false");
  expect(seqs()).toContain(1);
  expect(element.scrollTop).toBe(0);
}

describe("TrafficList at 10 million rows", { timeout: 30_000 }, () => {
  it("keeps its spacer under the browser's cap, and End shows the last row", async () => {
    render(<List n={TEN_MILLION} />);
    expect(screen.getByTestId("traffic-sizer").style.height).toBe(`${MAX_SPACER}px`);
    await settle();
    expect(seqs()).toContain(1);

    fireEvent.keyDown(scroller(), { key: "End" });
    await settle();
    await settle();
    expect(seqs()).toContain(TEN_MILLION);
    // At the end, the list follows the newest row again; the scrollbar is at its end too.
    expect(screen.getByTestId("follow").textContent).toBe("true");
    expect(scroller().scrollTop).toBe(MAX_SPACER - 600);

    fireEvent.keyDown(scroller(), { key: "Home" });
    await settle();
    expect(seqs()).toContain(1);
    expect(screen.getByTestId("follow").textContent).toBe("false");
  });

  it("maps the scrollbar onto the list: its middle is row 5 million", async () => {
    render(<List n={TEN_MILLION} />);
    await settle();
    const element = scroller();
    element.scrollTop = (MAX_SPACER - 600) / 2;
    fireEvent.scroll(element);
    await settle();
    await settle();
    const shown = seqs();
    expect(Math.min(...shown)).toBeLessThan(5_000_000);
    expect(Math.max(...shown)).toBeGreaterThan(5_000_000);
  });

  it("pages with PageDown by a view less a row, and the wheel moves by list px", async () => {
    render(<List n={TEN_MILLION} />);
    await settle();
    fireEvent.keyDown(scroller(), { key: "PageDown" });
    await settle();
    // A view of 600 px less a row: the top row is now row 20 (572 px down), seq 21.
    expect(Math.min(...seqs())).toBeLessThanOrEqual(21);
    expect(seqs()).toContain(21 + 20);
    // 28 000 px of wheel are 1 000 rows, not 1 000 rows times the spacer's scale.
    fireEvent.wheel(scroller(), { deltaY: 28_000, deltaMode: 0 });
    await settle();
    const shown = seqs();
    expect(shown).toContain(1_021);
    expect(Math.max(...shown)).toBeLessThan(1_100);
  });

  it("lands on a frame picked elsewhere (a request's response, the timeline), however far down", async () => {
    const locate = vi.fn(async (seq: number) => seq - 1);
    render(<List n={TEN_MILLION} locate={locate} />);
    await settle();
    fireEvent.click(screen.getByTestId("jump"));
    await settle();
    await settle();
    expect(locate).toHaveBeenCalledWith(7_654_322);
    const selected = document.querySelector('[data-testid="traffic-row"][aria-selected="true"]');
    expect(selected?.getAttribute("data-seq")).toBe("7654322");
  });

  it("moves the selection with the arrow keys, from the rows in sight", async () => {
    render(<List n={TEN_MILLION} />);
    await settle();
    fireEvent.keyDown(scroller(), { key: "ArrowDown" });
    fireEvent.keyDown(scroller(), { key: "ArrowDown" });
    await settle();
    const selected = () => document.querySelector('[data-testid="traffic-row"][aria-selected="true"]')?.getAttribute("data-seq");
    expect(selected()).toBe("2");
    fireEvent.keyDown(scroller(), { key: "ArrowUp" });
    await settle();
    expect(selected()).toBe("1");
  });

  it("scrolled up while following, stops following and stays where it was scrolled", async () => {
    render(<List n={TEN_MILLION} initialFollow />);
    await settle();
    await settle();
    expect(seqs()).toContain(TEN_MILLION);
    const element = scroller();
    element.scrollTop = 0;
    await scrolledToTheTop(element);
  });

  it("keeps a scroll whose event comes after rows arrived (the list re-rendered in between)", async () => {
    const { rerender } = render(<List n={TEN_MILLION} initialFollow />);
    await settle();
    await settle();
    expect(seqs()).toContain(TEN_MILLION);
    const element = scroller();
    // The user drags the scrollbar to the top; before its scroll event is handled, new rows
    // render the list.
    element.scrollTop = 0;
    rerender(<List n={TEN_MILLION + 5} initialFollow />);
    await settle();
    await scrolledToTheTop(element);
  });

  it("follows the newest row when following, and places rows a row apart", async () => {
    render(<List n={300} initialFollow />);
    await settle();
    await settle();
    expect(seqs()).toContain(300);
    const rows = screen.getAllByTestId("traffic-row");
    const y = (r: Element) => Number(/translateY\((-?[\d.]+)px\)/.exec((r as HTMLElement).style.transform)?.[1]);
    const sorted = [...rows].sort((a, b) => Number(a.getAttribute("data-seq")) - Number(b.getAttribute("data-seq")));
    expect(y(sorted[1]!) - y(sorted[0]!)).toBe(ROW_HEIGHT);
  });
});
