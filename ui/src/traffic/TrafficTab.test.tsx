import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TrafficTab } from "./TrafficTab";
import { row } from "./rows.fixtures";
import { applyLanguage } from "../i18n";
import { resetConnections, updateServer, useServer } from "../state/connections";
import { dispatchEvents } from "../state/dispatcher";
import { setFrameSchedule } from "../state/notifier";
import { resetTraffic, setCatchUp, setTrafficView, traffic } from "../state/traffic";

beforeEach(() => {
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

  it("says when the filter hides every frame, and clears it", () => {
    ready("t2");
    act(() => {
      dispatchEvents([{ type: "frames", server_id: "t2", rows: [row(1), row(2)] }]);
      setTrafficView("t2", { text: "nothing like this" });
    });
    render(<Harness id="t2" />);
    expect(screen.getByTestId("traffic-count").textContent).toBe("0 of 2 frames");
    expect(screen.getByTestId("traffic-empty").textContent).toContain("The filter hides all 2 frames.");
    fireEvent.click(screen.getByTestId("traffic-clear-filter"));
    expect(traffic.getState()["t2"]!.trafficView.text).toBe("");
    expect(screen.getByTestId("traffic-count").textContent).toBe("2 of 2 frames");
    expect(screen.queryByTestId("traffic-empty")).toBeNull();
    expect(screen.getByTestId("frame-detail-hint").textContent).toContain("Select a frame");
  });

  it("shows how far a large backlog has loaded, once loading takes a moment", () => {
    ready("t3");
    act(() => {
      dispatchEvents([{ type: "frames", server_id: "t3", rows: [row(20_003)] }]);
      setCatchUp("t3", { loaded: 15_000, startedAt: Date.now() - 1_000 });
    });
    render(<Harness id="t3" />);
    expect(screen.getByTestId("traffic-catching-up").textContent).toBe("Loading earlier frames… 15,000 of 20,003");
    act(() => setCatchUp("t3", null));
    expect(screen.queryByTestId("traffic-catching-up")).toBeNull();
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
