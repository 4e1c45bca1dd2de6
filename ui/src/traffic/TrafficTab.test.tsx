import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { TrafficFilter } from "../bindings/TrafficFilter";
import { TrafficTab } from "./TrafficTab";
import { row } from "./rows.fixtures";

// The engine's record, as the commands answer: two frames; a text filter matches neither.
const invoke = vi.hoisted(() => vi.fn());
vi.mock("@tauri-apps/api/core", () => ({ invoke, Channel: class {} }));
import { applyLanguage } from "../i18n";
import { resetConnections, updateServer, useServer } from "../state/connections";
import { dispatchEvents } from "../state/dispatcher";
import { setFrameSchedule } from "../state/notifier";
import { resetTraffic, setTrafficView, traffic } from "../state/traffic";

beforeEach(() => {
  invoke.mockImplementation(async (command: string, args: { filter?: TrafficFilter; offset?: number }) => {
    const kept = args.filter?.text ? [] : [row(1), row(2)];
    if (command === "traffic_count") return kept.length;
    if (command === "traffic_tail") return { count: kept.length, from: 0, rows: kept };
    if (command === "traffic_window") return kept.slice(args.offset ?? 0);
    if (command === "traffic_position") return null;
    throw new Error(`unexpected ${command}`);
  });
  setFrameSchedule((flush) => flush());
  resetConnections();
  resetTraffic();
});
afterEach(() => {
  cleanup();
  setFrameSchedule(null);
  applyLanguage("en");
});

function Harness({ id }: { id: string }) {
  const server = useServer(id);
  return server ? <TrafficTab server={server} /> : null;
}

const ready = (id: string) =>
  act(() => updateServer(id, (s) => ({ ...s, status: { state: "ready", protocol_version: "2025-11-25" } })));

describe("TrafficTab", () => {
  it("says where frames come from before there are any, with Connect while disconnected", () => {
    act(() => updateServer("t1", (s) => s));
    render(<Harness id="t1" />);
    const empty = screen.getByTestId("traffic-empty");
    expect(empty.textContent).toContain("No frames yet");
    expect(empty.textContent).toContain("connect the server to start");
    expect(screen.getByTestId("empty-state-connect")).toBeTruthy();
    expect(screen.getByTestId("traffic-count").textContent).toBe("0 of 0 frames");

    ready("t1");
    expect(screen.getByTestId("traffic-empty").textContent).toBe(
      "No frames yetFrames appear here as soon as the server or Periscope sends one.",
    );
    expect(screen.queryByTestId("empty-state-connect")).toBeNull();
  });

  it("says when the filter hides every frame, and clears it (counts asked of the engine)", async () => {
    ready("t2");
    act(() => {
      dispatchEvents([{ type: "traffic_changed", server_id: "t2", summary: { listed_to: 2, violations: 1, not_checked: 0 } }]);
      setTrafficView("t2", { text: "nothing like this" });
    });
    render(<Harness id="t2" />);
    await waitFor(() => expect(screen.getByTestId("traffic-count").textContent).toBe("0 of 2 frames"));
    expect(screen.getByTestId("traffic-empty").textContent).toContain("The filter hides all 2 frames.");
    expect(screen.getByTestId("traffic-violations").textContent).toBe("1 frame off the schema");
    // Following the newest frame (the default), the filter is counted with its newest rows.
    const counted = invoke.mock.calls.find(([command]) => command === "traffic_tail") as
      | [string, { filter: TrafficFilter }]
      | undefined;
    expect(counted?.[1].filter.text).toBe("nothing like this");
    fireEvent.click(screen.getByTestId("traffic-clear-filter"));
    expect(traffic.getState()["t2"]!.trafficView.text).toBe("");
    await waitFor(() => expect(screen.getByTestId("traffic-count").textContent).toBe("2 of 2 frames"));
    expect(screen.queryByTestId("traffic-empty")).toBeNull();
    expect(screen.getByTestId("frame-detail-hint").textContent).toContain("Select a frame");
  });

  it("following the newest frame, shows the rows that came with the count without asking for them again", async () => {
    ready("t3");
    act(() => {
      dispatchEvents([{ type: "traffic_changed", server_id: "t3", summary: { listed_to: 2, violations: 0, not_checked: 0 } }]);
    });
    render(<Harness id="t3" />);
    await waitFor(() => expect(screen.getAllByTestId("traffic-row")).toHaveLength(2));
    expect(invoke.mock.calls.filter(([command]) => command === "traffic_window")).toEqual([]);
    // Not following: counted alone, the rows fetched as they come into sight.
    invoke.mockClear();
    act(() => setTrafficView("t3", { follow: false }));
    await waitFor(() => expect(invoke.mock.calls.some(([command]) => command === "traffic_count")).toBe(true));
    expect(invoke.mock.calls.some(([command]) => command === "traffic_tail")).toBe(false);
  });

  it("speaks Simplified Chinese", () => {
    applyLanguage("zh-Hans");
    act(() => updateServer("t4", (s) => s));
    render(<Harness id="t4" />);
    expect(screen.getByTestId("traffic-empty").textContent).toContain("还没有帧");
    expect(screen.getByTestId("traffic-count").textContent).toBe("0 / 0 帧");
    expect(screen.getByTestId("empty-state-connect").textContent).toBe("连接");
  });
});
