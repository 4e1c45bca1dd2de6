import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Timeline } from "../bindings/Timeline";
import type { TimelineSpan } from "../bindings/TimelineSpan";
import "../i18n";
import { TimelineChart } from "./TimelineChart";

afterEach(cleanup);

const MS = 1_000;
const T0 = 1_700_000_000_000_000;

function span(seq: number, startMs: number, endMs: number | null, extra: Partial<TimelineSpan> = {}): TimelineSpan {
  return {
    request_seq: seq,
    response_seq: endMs === null ? null : seq + 1,
    method: "tools/call",
    id: String(seq),
    direction: "out",
    start_us: T0 + startMs * MS,
    end_us: endMs === null ? null : T0 + endMs * MS,
    duration_us: endMs === null ? null : (endMs - startMs) * MS,
    outcome: endMs === null ? "pending" : "ok",
    progress: [],
    progress_count: 0,
    rounds: [],
    ...extra,
  };
}

const slow = span(3, 100, 1_300, {
  progress: [1, 2, 3].map((i) => ({ seq: 3 + i, at_us: T0 + (100 + i * 300) * MS, progress: i, total: 3, message: null })),
  progress_count: 3,
});
const rounds = span(20, 1_400, 1_600, {
  rounds: [
    { round: 1, request_seq: 20, response_seq: 21, start_us: T0 + 1_400 * MS, end_us: T0 + 1_450 * MS },
    { round: 2, request_seq: 22, response_seq: 23, start_us: T0 + 1_500 * MS, end_us: T0 + 1_600 * MS },
  ],
  response_seq: 23,
});
const timeline: Timeline = {
  spans: [span(1, 0, 20, { method: "server/discover" }), slow, span(10, 200, 210, { method: "roots/list", direction: "in" }), rounds],
  ticks: [{ seq: 30, at_us: T0 + 1_700 * MS, direction: "in", kind: "notification", method: "notifications/message" }],
  omitted_spans: 0,
  omitted_ticks: 0,
  now_us: T0 + 2_000 * MS,
};

function draw(domain = { from: T0 - 50 * MS, to: T0 + 2_000 * MS }) {
  const onOpen = vi.fn();
  const onDomain = vi.fn();
  render(
    <TimelineChart
      lanes={[{ serverId: "demo", name: "Demo", timeline }]}
      domain={domain}
      origin={T0}
      nowUs={timeline.now_us}
      showNames={false}
      onDomain={onDomain}
      onOpen={onOpen}
    />,
  );
  return { onOpen, onDomain };
}

describe("the timeline chart", () => {
  it("draws a bar per span with its method, outcome, direction, progress and rounds, and ticks", () => {
    draw();
    const bars = screen.getAllByTestId("timeline-bar");
    expect(bars.map((b) => b.getAttribute("data-method"))).toEqual(["server/discover", "tools/call", "roots/list", "tools/call"]);
    const slowBar = bars[1]!;
    expect(slowBar.getAttribute("data-progress-count")).toBe("3");
    expect(slowBar.querySelectorAll('[data-testid="timeline-progress"]')).toHaveLength(3);
    expect(bars[2]!.getAttribute("data-direction")).toBe("in");
    expect(bars[3]!.querySelectorAll('[data-testid="timeline-round"]')).toHaveLength(2);
    // The slow bar is drawn wider than the quick ones.
    const width = (b: Element) => Number(b.querySelector(".timeline-bar-body")!.getAttribute("width"));
    expect(width(slowBar)).toBeGreaterThan(width(bars[0]!) * 10);
    expect(screen.getAllByTestId("timeline-tick")).toHaveLength(1);
  });

  it("opens the request frame on a click or Enter, and the tooltip tells method and duration", () => {
    const { onOpen } = draw();
    const slowBar = screen.getAllByTestId("timeline-bar")[1]!;
    fireEvent.click(slowBar);
    expect(onOpen).toHaveBeenCalledWith("demo", 3);
    fireEvent.keyDown(screen.getAllByTestId("timeline-bar")[3]!, { key: "Enter" });
    expect(onOpen).toHaveBeenLastCalledWith("demo", 20);
    fireEvent.focus(slowBar);
    const tip = screen.getByTestId("timeline-tooltip").textContent ?? "";
    expect(tip).toContain("tools/call");
    expect(tip).toContain("1200.0 ms");
    expect(tip).toContain("3 of 3");
  });

  it("is one Tab stop, and arrows move between bars", () => {
    draw();
    const bars = screen.getAllByTestId("timeline-bar");
    expect(bars.map((b) => b.getAttribute("tabindex"))).toEqual(["0", "-1", "-1", "-1"]);
    bars[0]!.focus();
    fireEvent.keyDown(bars[0]!, { key: "ArrowRight" });
    expect(document.activeElement).toBe(bars[1]);
    fireEvent.keyDown(bars[1]!, { key: "ArrowLeft" });
    expect(document.activeElement).toBe(bars[0]);
  });

  it("leaves out what is outside the view", () => {
    draw({ from: T0 + 1_350 * MS, to: T0 + 1_650 * MS });
    expect(screen.getAllByTestId("timeline-bar").map((b) => b.getAttribute("data-seq"))).toEqual(["20"]);
  });

  it("zooms on the wheel about the pointer", () => {
    const { onDomain } = draw();
    const svg = screen.getByTestId("timeline-chart").querySelector("svg")!;
    fireEvent.wheel(svg, { deltaY: -100, clientX: 0 });
    expect(onDomain).toHaveBeenCalledTimes(1);
    const d = onDomain.mock.calls[0]![0] as { from: number; to: number };
    expect(d.to - d.from).toBeLessThan(2_050 * MS);
  });
});
