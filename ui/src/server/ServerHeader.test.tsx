import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ServerEntry } from "../bindings/ServerEntry";
import { ServerHeader } from "./ServerHeader";
import { applyLanguage } from "../i18n";
import { beginConnect, connections, updateServer } from "../state/connections";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  applyLanguage("en");
});

const entry: ServerEntry = {
  id: "h1",
  name: "Demo",
  target: { transport: "stdio", command: "demo", args: [], env: [], cwd: null, secret_env: [] },
  era: "auto",
} as unknown as ServerEntry;

describe("ServerHeader", () => {
  it("shows a spinner and the seconds spent connecting", () => {
    vi.useFakeTimers();
    act(() => beginConnect("h1"));
    const server = () => connections.getState().servers["h1"]!;
    const { rerender } = render(<ServerHeader entry={entry} server={server()} />);
    expect(screen.getByTestId("status-text").textContent).toBe("Connecting… · stdio");
    expect(screen.queryByTestId("connecting-elapsed")).toBeNull();
    act(() => vi.advanceTimersByTime(3_100));
    expect(screen.getByTestId("connecting-elapsed").textContent).toBe("3 s");

    act(() => updateServer("h1", (s) => ({ ...s, busy: null, status: { state: "ready", protocol_version: "2025-11-25" } })));
    rerender(<ServerHeader entry={entry} server={server()} />);
    expect(screen.getByTestId("status-text").textContent).toBe("Ready · protocol 2025-11-25 · stdio");
    expect(screen.queryByTestId("connecting-elapsed")).toBeNull();

    act(() => applyLanguage("zh-Hans"));
    expect(screen.getByTestId("status-text").textContent).toBe("就绪 · 协议 2025-11-25 · stdio");
    expect(screen.getByTestId("reconnect-button").textContent).toBe("重新连接");
  });
});
