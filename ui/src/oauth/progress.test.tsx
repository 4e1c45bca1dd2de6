import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AppEvent } from "../bindings/AppEvent";
import type { HttpExchange } from "../bindings/HttpExchange";
import type { PendingAsk } from "../bindings/PendingAsk";
import { SignInDialog } from "../asks/SignInDialog";
import { applyLanguage } from "../i18n";
import { resetAsks } from "../state/asks";
import { resetConnections } from "../state/connections";
import { dispatchEvents } from "../state/dispatcher";
import { setFrameSchedule } from "../state/notifier";
import { resetTraffic } from "../state/traffic";
import { formatDuration, useSignInProgress } from "./progress";
import { SignInProgress } from "./SignInProgress";

vi.mock("@tauri-apps/api/core", () => ({ invoke: vi.fn(() => Promise.resolve(null)), Channel: class {} }));

const T0 = 1_700_000_000_000; // ms
const us = (ms: number) => ms * 1000;

const exchange = (seq: number, status: number, atMs: number): HttpExchange => ({
  seq,
  wall_us: us(atMs),
  mono_us: seq,
  method: "POST",
  url: "https://mcp.example.com/mcp",
  status,
  error: null,
  request_headers: [],
  response_headers: [],
  duration_us: 1000,
  sent_frame: null,
});

const signInAsk: PendingAsk = {
  ask_id: 7,
  server_id: "remote",
  server_name: "Remote",
  request_id: null,
  received_wall_us: us(T0 + 3000),
  ask: {
    kind: "sign_in",
    prompt: { auth_server_host: "auth.example.com", scopes: "mcp:read", url: "https://auth.example.com/authorize?x=1" },
  },
};

function Probe() {
  const progress = useSignInProgress("remote");
  return progress ? <SignInProgress progress={progress} /> : <p>idle</p>;
}

const send = (...events: AppEvent[]) => act(() => void dispatchEvents(events, us(T0)));

beforeEach(() => {
  setFrameSchedule((f) => f());
  resetConnections();
  resetTraffic();
  resetAsks();
  vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"] });
  vi.setSystemTime(T0 + 10_000);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  applyLanguage("en");
});

describe("the sign-in's progress", () => {
  it("follows discovery, the dialog and the browser from the app's events, with elapsed time", () => {
    render(<Probe />);
    expect(screen.getByText("idle")).toBeTruthy();

    send({ type: "status", server_id: "remote", status: { state: "connecting" } });
    send({ type: "http", server_id: "remote", exchange: exchange(1, 401, T0 + 1000) });
    const panel = () => screen.getByTestId("sign-in-progress");
    expect(panel().dataset["phase"]).toBe("discovery");
    expect(screen.getByTestId("sign-in-elapsed").textContent).toBe("9 s");

    send({ type: "ask", ask: signInAsk });
    expect(panel().dataset["phase"]).toBe("approval");
    const discovery = panel().querySelector('[data-step="discovery"]');
    expect(discovery?.getAttribute("data-state")).toBe("done");
    expect(discovery?.textContent).toContain("2 s"); // 401 at +1 s, dialog at +3 s
    expect(screen.getByTestId("sign-in-elapsed").textContent).toBe("7 s");

    send(
      { type: "ask_closed", server_id: "remote", ask_id: 7, outcome: "answered" },
      {
        type: "decision",
        server_id: "remote",
        decision: {
          wall_us: us(T0 + 5000),
          request_id: null,
          method: "oauth/authorize",
          decision: "sign_in",
          detail: "auth.example.com",
          elicitation_id: null,
        },
      },
    );
    expect(panel().dataset["phase"]).toBe("browser");
    expect(panel().querySelector('[data-step="exchange"]')?.getAttribute("data-state")).toBe("next");
    act(() => void vi.advanceTimersByTime(65_000));
    expect(screen.getByTestId("sign-in-elapsed").textContent).toBe("1 min 10 s");

    // The request goes again with the token: the sign-in is over.
    send({ type: "http", server_id: "remote", exchange: exchange(2, 200, T0 + 80_000) });
    expect(screen.getByText("idle")).toBeTruthy();
  });

  it("says nothing of a 401 once the connection is up or gone", () => {
    render(<Probe />);
    send(
      { type: "status", server_id: "remote", status: { state: "connecting" } },
      { type: "http", server_id: "remote", exchange: exchange(1, 401, T0) },
      { type: "status", server_id: "remote", status: { state: "failed", error: { kind: "internal", detail: "sign-in failed" }, stderr_tail: [], diagnoses: [] } },
    );
    expect(screen.getByText("idle")).toBeTruthy();
  });

  it("shows in the sign-in dialog, in the chosen language", () => {
    applyLanguage("zh-Hans");
    send({ type: "ask", ask: signInAsk });
    render(
      <SignInDialog
        serverId="remote"
        serverName="Remote"
        prompt={signInAsk.ask.kind === "sign_in" ? signInAsk.ask.prompt : { auth_server_host: "", scopes: null, url: "" }}
        receivedWallUs={signInAsk.received_wall_us}
        onDecide={() => {}}
      />,
    );
    expect(screen.getByRole("heading").textContent).toBe(" Remote 要求你登录");
    expect(screen.getByTestId("sign-in-progress").dataset["phase"]).toBe("approval");
    expect(screen.getByTestId("sign-in-elapsed").textContent).toBe("7 秒");
    expect(screen.getByTestId("sign-in-open").textContent).toBe(" 使用浏览器登录");
  });

  it("formats durations in the current language", () => {
    expect(formatDuration(4_900)).toBe("4 s");
    expect(formatDuration(125_000)).toBe("2 min 05 s");
    applyLanguage("zh-Hans");
    expect(formatDuration(125_000)).toBe("2 分 05 秒");
  });
});
