import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ServerEntry } from "../bindings/ServerEntry";
import { resetConnections, setCatalog, updateServer } from "../state/connections";
import { ServerItem } from "./ServerItem";

vi.mock("@tauri-apps/api/core", () => ({ invoke: vi.fn(() => Promise.resolve([])), Channel: class {} }));

const demo = { id: "demo", name: "Demo server", era: "auto", target: { transport: "stdio", command: "demo", args: [], env: [], cwd: null } } as unknown as ServerEntry;

beforeEach(() => {
  vi.useFakeTimers();
  resetConnections();
  setCatalog([demo]);
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("a server in the sidebar", () => {
  it("says it is connecting, and for how long after two seconds", () => {
    render(<ServerItem entry={demo} selected={false} onEdit={vi.fn()} />);
    expect(screen.queryByTestId("server-item-connecting")).toBeNull();
    act(() => updateServer("demo", (s) => ({ ...s, status: { state: "connecting" } })));
    expect(screen.getByTestId("server-item-connecting").textContent).toBe("Connecting…");
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByTestId("server-item-connecting").textContent).toBe("Connecting…");
    act(() => vi.advanceTimersByTime(2000));
    expect(screen.getByTestId("server-item-connecting").textContent).toBe("Connecting… 3 s");
    act(() => updateServer("demo", (s) => ({ ...s, status: { state: "ready", protocol_version: "2026-07-28" } })));
    expect(screen.queryByTestId("server-item-connecting")).toBeNull();
  });
});
