import { describe, expect, it } from "vitest";
import type { FrameRow } from "../bindings/FrameRow";
import type { HistoryEntry } from "../bindings/HistoryEntry";
import type { ServerEntry } from "../bindings/ServerEntry";
import { newServerState } from "../state/connections";
import { answerFrame, catalogToast, toastsForEvents } from "./toasts";

const history = (outcome: HistoryEntry["outcome"]): HistoryEntry => ({
  id: "h1",
  server_id: "demo",
  kind: "tool",
  target: "fail",
  arguments: {},
  started_wall_us: 1_000,
  duration_us: 10,
  outcome,
  result_preview: null,
  truncated: false,
});

const ready = { ...newServerState("demo"), status: { state: "ready" as const, protocol_version: "2025-11-25" } };
const name = (id: string) => (id === "demo" ? "Demo server" : id);

describe("toasts for events", () => {
  it("say a call failed, with a link to its frame, and nothing for a call that went well", () => {
    const toasts = toastsForEvents(
      [
        { type: "history", server_id: "demo", entry: history("is_error") },
        { type: "history", server_id: "demo", entry: history("ok") },
      ],
      () => ready,
      name,
    );
    expect(toasts).toHaveLength(1);
    expect(toasts[0]).toMatchObject({ kind: "error", message: "Call of fail failed", frame: { serverId: "demo" } });
  });

  it("say a connection dropped, but not when the user disconnected it", () => {
    const dropped = { type: "status" as const, server_id: "demo", status: { state: "failed" as const, error: "exited with status 1", stderr_tail: [] } };
    expect(toastsForEvents([dropped], () => ready, name)[0]).toMatchObject({
      message: "Demo server: the connection dropped",
      detail: "exited with status 1",
    });
    expect(toastsForEvents([dropped], () => ({ ...ready, busy: "disconnecting" }), name)).toEqual([]);
    expect(toastsForEvents([dropped], () => newServerState("demo"), name)).toEqual([]);
  });
});

describe("the catalog toast", () => {
  const e = (id: string): ServerEntry => ({ id, name: `S ${id}` }) as unknown as ServerEntry;
  it("names what was added", () => {
    expect(catalogToast([e("a")], [e("a"), e("b")])?.message).toBe("Added “S b” to the servers");
    expect(catalogToast([], [e("a"), e("b"), e("c"), e("d")])).toMatchObject({ message: "Added 4 servers", detail: "S a, S b, S c, …" });
    expect(catalogToast([e("a"), e("b")], [e("a")])).toBeNull();
  });
});

describe("the frame a call toast links to", () => {
  const row = (seq: number, wall_us: number, kind: FrameRow["kind"], method: string): FrameRow =>
    ({ seq, wall_us, kind, method, direction: "in" }) as unknown as FrameRow;
  it("is the newest answer to the call's method since it started", () => {
    const rows = [row(1, 500, "response", "tools/call"), row(2, 1_001, "request", "tools/call"), row(3, 1_005, "response", "tools/call"), row(4, 1_006, "notification", "notifications/message")];
    expect(answerFrame(rows, history("is_error"))).toBe(3);
    expect(answerFrame(rows.slice(0, 2), history("is_error"))).toBeNull();
  });
});
