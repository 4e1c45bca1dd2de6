import { describe, expect, it } from "vitest";
import { markCancelled, runningCall, startCall } from "./calls";
import { dispatchEvents } from "./dispatcher";

describe("running calls", () => {
  it("takes progress for its own call id and server only, and remembers a cancel", () => {
    const first = startCall("s", "slow");
    const second = startCall("s", "slow"); // a new call replaces the old one
    expect(second).not.toBe(first);
    dispatchEvents([
      { type: "call_progress", server_id: "s", call_id: first, progress: 9, total: 10, message: null },
      { type: "call_progress", server_id: "x", call_id: second, progress: 8, total: 10, message: null },
    ]);
    expect(runningCall("s", "slow")?.progress).toBeNull();
    dispatchEvents([{ type: "call_progress", server_id: "s", call_id: second, progress: 3, total: 10, message: "step 3" }]);
    expect(runningCall("s", "slow")).toMatchObject({ progress: 3, total: 10, message: "step 3", cancelled: false });
    expect(markCancelled("s", "slow")?.cancelled).toBe(true);
    expect(runningCall("s", "slow")?.callId).toBe(second);
  });
});
