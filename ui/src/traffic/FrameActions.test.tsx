import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { FrameDetail } from "../bindings/FrameDetail";
import { FrameActions } from "./FrameActions";

const invoke = vi.hoisted(() => vi.fn());
vi.mock("@tauri-apps/api/core", () => ({ invoke, Channel: class {} }));
const copied = vi.hoisted(() => vi.fn(async (_text: string) => {}));
vi.mock("../common/clipboard", () => ({ copyText: copied }));

afterEach(cleanup);

const detail = (over: Partial<FrameDetail>): FrameDetail => ({
  seq: 3,
  direction: "out",
  wall_us: 0,
  mono_us: 0,
  size: 2,
  truncated_from: null,
  verdict: { kind: "request", id: 1, method: "tools/call" } as unknown as FrameDetail["verdict"],
  flags: [],
  text: "{}",
  base64: null,
  pretty: "{}",
  rounds: [],
  partner_seq: null,
  exchange: null,
  ...over,
});

describe("FrameActions", () => {
  it("jumps from a request to its response", () => {
    const onJump = vi.fn();
    render(<FrameActions serverId="s" detail={detail({ partner_seq: 4 })} onJump={onJump} />);
    fireEvent.click(screen.getByTestId("frame-go-response"));
    expect(onJump).toHaveBeenCalledWith(4);
    expect(screen.queryByTestId("frame-go-exchange")).toBeNull();
  });

  it("from a response, names its request; an HTTP frame links its exchange", () => {
    const verdict = { kind: "response", id: 1, is_error: false } as unknown as FrameDetail["verdict"];
    render(<FrameActions serverId="s" detail={detail({ verdict, partner_seq: 3, exchange: 2 })} onJump={() => {}} />);
    expect(screen.getByTestId("frame-go-request").textContent).toBe("Request #3");
    expect(screen.getByTestId("frame-go-exchange").textContent).toBe("HTTP exchange #2");
  });

  it("copies the frame as the command line the app writes", async () => {
    invoke.mockResolvedValue("periscope raw '{}' -- demo");
    render(<FrameActions serverId="s" detail={detail({})} onJump={() => {}} />);
    fireEvent.click(screen.getByTestId("copy-frame-raw"));
    await waitFor(() => expect(copied).toHaveBeenCalledWith("periscope raw '{}' -- demo"));
    expect(invoke).toHaveBeenCalledWith("frame_raw_command", { serverId: "s", seq: 3 });
  });
});
