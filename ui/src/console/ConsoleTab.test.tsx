import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConsoleTab } from "./ConsoleTab";
import { applyLanguage } from "../i18n";
import { resetConnections, updateServer, useServer } from "../state/connections";
import { dispatchEvents } from "../state/dispatcher";
import { resetLogs } from "../state/logs";
import { setFrameSchedule } from "../state/notifier";

beforeEach(() => {
  setFrameSchedule((flush) => flush());
  resetConnections();
  resetLogs();
});
afterEach(() => {
  cleanup();
  setFrameSchedule(null);
  applyLanguage("en");
});

function Harness({ id }: { id: string }) {
  const server = useServer(id);
  return server ? <ConsoleTab server={server} /> : null;
}

describe("ConsoleTab", () => {
  it("says what will appear before anything did, and offers to connect", () => {
    act(() => updateServer("c1", (s) => s));
    render(<Harness id="c1" />);
    expect(screen.getByTestId("console-empty").textContent).toContain("Nothing on stderr and no notifications yet");
    expect(screen.getByTestId("empty-state-connect")).toBeTruthy();
  });

  it("says when the filter matches nothing, clears it, and words notifications in the current language", () => {
    act(() => {
      updateServer("c2", (s) => ({ ...s, status: { state: "ready", protocol_version: "2025-11-25" } }));
      dispatchEvents([
        { type: "stderr", server_id: "c2", lines: [{ seq: 1, wall_us: 1, mono_us: 1, text: "booting" }] },
        { type: "notification", server_id: "c2", notification: { kind: "tools_list_changed" } },
      ]);
    });
    render(<Harness id="c2" />);
    const filter = screen.getByTestId("console-filter");
    fireEvent.change(filter, { target: { value: "zzz" } });
    expect(screen.getByTestId("console-empty").textContent).toContain("The filter hides all 2 entries.");
    fireEvent.click(screen.getByTestId("console-clear-filter"));
    expect(screen.getAllByTestId("console-line")).toHaveLength(2);
    expect(screen.getByText("The tool list changed")).toBeTruthy();

    act(() => applyLanguage("zh-Hans"));
    expect(screen.getByText("工具列表已变化")).toBeTruthy();
    // The filter searches the words shown.
    fireEvent.change(filter, { target: { value: "工具" } });
    expect(screen.getAllByTestId("console-line")).toHaveLength(1);
  });

  it("says, in order and in words, how many log messages of a flood were held back, and finds them by filter", () => {
    const log = (n: number) => ({
      type: "notification" as const,
      server_id: "c3",
      notification: { kind: "log" as const, level: "info", logger: null, data: `message ${n}` },
    });
    act(() => {
      updateServer("c3", (s) => ({ ...s, status: { state: "ready", protocol_version: "2025-11-25" } }));
      dispatchEvents([log(1), { type: "logs_held", server_id: "c3", count: 48_000, per_second: 1000 }, log(48_002)]);
    });
    render(<Harness id="c3" />);
    const lines = screen.getAllByTestId("console-line");
    expect(lines.map((l) => l.getAttribute("data-kind"))).toEqual(["log", "held", "log"]);
    expect(lines[1]!.textContent).toContain(
      "48,000 log messages not shown here: more than 1,000 came in a second. Every one is in Traffic.",
    );
    // The total stays in sight above the lines, however far a flood pushed the counts up.
    act(() => {
      dispatchEvents([{ type: "logs_held", server_id: "c3", count: 2_000, per_second: 1000 }]);
    });
    expect(screen.getByTestId("console-held-total").textContent).toBe(
      "50,000 log messages of a flood are not shown here: more than 1,000 came in a second. Every one is in Traffic.",
    );
    fireEvent.change(screen.getByTestId("console-filter"), { target: { value: "not shown" } });
    expect(screen.getAllByTestId("console-line")).toHaveLength(2);
    act(() => applyLanguage("zh-Hans"));
    fireEvent.change(screen.getByTestId("console-filter"), { target: { value: "此处未显示" } });
    expect(screen.getAllByTestId("console-line")[0]!.textContent).toContain("此处未显示 48,000 条日志消息");
    expect(screen.getByTestId("console-held-total").textContent).toContain("洪流中有 50,000 条日志消息");
  });
});
