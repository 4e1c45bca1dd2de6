import { describe, expect, it, vi } from "vitest";
import { INITIAL_LAYOUT, MAX_SIZE, MIN_SIZE, applyOut, clampSize, fromFrame, postToFrame } from "./relay";

describe("clampSize", () => {
  it("keeps a size within [80, 4000] px and rounds it", () => {
    expect(clampSize(10)).toBe(MIN_SIZE);
    expect(clampSize(-5)).toBe(MIN_SIZE);
    expect(clampSize(123.6)).toBe(124);
    expect(clampSize(1e9)).toBe(MAX_SIZE);
    expect(MIN_SIZE).toBe(80);
    expect(MAX_SIZE).toBe(4000);
  });

  it("gives null for no size or a size that is not a number", () => {
    expect(clampSize(null)).toBeNull();
    expect(clampSize(undefined)).toBeNull();
    expect(clampSize(Number.NaN)).toBeNull();
    expect(clampSize(Number.POSITIVE_INFINITY)).toBeNull();
  });
});

describe("applyOut", () => {
  const none = () => {
    throw new Error("nothing is posted");
  };

  it("resizes within the clamps, a side not named keeping its size", () => {
    const tall = applyOut(INITIAL_LAYOUT, { kind: "resize", width: null, height: 99999 }, none);
    expect(tall).toMatchObject({ width: null, height: 4000 });
    const narrow = applyOut(tall, { kind: "resize", width: 3, height: null }, none);
    expect(narrow).toMatchObject({ width: 80, height: 4000 });
  });

  it("switches the display mode and notes the end of the view", () => {
    const full = applyOut(INITIAL_LAYOUT, { kind: "display_mode", mode: "fullscreen" }, none);
    expect(full.mode).toBe("fullscreen");
    expect(applyOut(full, { kind: "closed", reason: "bye" }, none).closed).toBe("bye");
  });

  it("hands a post to the frame and leaves the layout as it was", () => {
    const deliver = vi.fn();
    const after = applyOut(INITIAL_LAYOUT, { kind: "post", text: '{"jsonrpc":"2.0"}' }, deliver);
    expect(after).toBe(INITIAL_LAYOUT);
    expect(deliver).toHaveBeenCalledWith('{"jsonrpc":"2.0"}');
  });
});

describe("fromFrame", () => {
  const frame = { name: "frame" } as unknown as Window;
  const other = { name: "other" } as unknown as Window;
  const event = (source: unknown, data: unknown) => ({ source, data }) as MessageEvent;

  it("ignores messages from any other source", () => {
    expect(fromFrame(event(other, { jsonrpc: "2.0" }), frame)).toBeNull();
    expect(fromFrame(event(null, { jsonrpc: "2.0" }), frame)).toBeNull();
    expect(fromFrame(event(frame, "x"), null)).toBeNull();
  });

  it("passes the frame's message on as text: a string as it is, anything else as JSON", () => {
    expect(fromFrame(event(frame, '{"id":1, "odd" :true}'), frame)).toBe('{"id":1, "odd" :true}');
    expect(fromFrame(event(frame, { id: 1, method: "ui/initialize" }), frame)).toBe('{"id":1,"method":"ui/initialize"}');
    expect(fromFrame(event(frame, undefined), frame)).toBe("null");
  });

  it("passes data JSON cannot hold on as text rather than dropping it", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(fromFrame(event(frame, cyclic), frame)).toBe("[object Object]");
  });
});

describe("postToFrame", () => {
  it("posts the parsed message to the frame with the target origin *", () => {
    const postMessage = vi.fn();
    expect(postToFrame({ postMessage } as unknown as Window, '{"jsonrpc":"2.0","id":1,"result":{}}')).toBe(true);
    expect(postMessage).toHaveBeenCalledWith({ jsonrpc: "2.0", id: 1, result: {} }, "*");
  });

  it("posts nothing without a frame or with text that is not JSON", () => {
    const postMessage = vi.fn();
    expect(postToFrame(null, "{}")).toBe(false);
    expect(postToFrame({ postMessage } as unknown as Window, "{oops")).toBe(false);
    expect(postMessage).not.toHaveBeenCalled();
  });
});
