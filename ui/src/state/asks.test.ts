import { beforeEach, describe, expect, it } from "vitest";
import type { PendingAsk } from "../bindings/PendingAsk";
import { addAsks, asks, removeAsk, resetAsks } from "./asks";
import { dispatchEvents } from "./dispatcher";
import { setFrameSchedule } from "./notifier";

const pending: Array<() => void> = [];
const flush = () => pending.splice(0).forEach((f) => f());
beforeEach(() => {
  setFrameSchedule((f) => pending.push(f));
  resetAsks();
  flush();
});

const ask = (id: number): PendingAsk => ({
  ask_id: id,
  server_id: "flood",
  server_name: "Flood",
  request_id: id,
  received_wall_us: id,
  ask: {
    kind: "elicit_form",
    message: `question ${id}`,
    schema: { type: "object", properties: {} },
    view: { message: `question ${id}`, request: { mode: "form", requested_schema: {}, fields: [] }, problems: [], raw: {} },
  },
});

const queue = () => asks.getState().pending;

describe("asks: the pending queue", () => {
  it("keeps asks oldest first, once each, and removes any of them", () => {
    addAsks([ask(1), ask(2)]);
    addAsks([ask(2), ask(3)]); // 2 again: ignored
    expect(queue().list().map((a) => a.ask_id)).toEqual([1, 2, 3]);
    removeAsk(2);
    expect(queue().list().map((a) => a.ask_id)).toEqual([1, 3]);
    removeAsk(1);
    expect(queue().first()?.ask_id).toBe(3);
    expect(queue().size).toBe(1);
  });

  it("tells the views only when something changed", () => {
    addAsks([ask(1)]);
    const before = asks.getState();
    addAsks([ask(1)]);
    removeAsk(99);
    expect(asks.getState()).toBe(before);
    removeAsk(1);
    expect(asks.getState()).not.toBe(before);
  });

  // A server flooding elicitations: each arrives as its own event, as from the app. The queue
  // is changed in place (no copy per ask), so this completes in a few milliseconds; the old
  // array copies took O(n²). The timeout is only the generous "does not hang" bound.
  it(
    "takes a flood of 10 000 asks one event at a time, then their answers",
    () => {
      const n = 10_000;
      const started = performance.now();
      for (let i = 0; i < n; i++) {
        dispatchEvents([{ type: "ask", ask: ask(i) }]);
      }
      flush();
      const added = performance.now() - started;
      expect(queue().size).toBe(n);
      expect(queue().first()?.ask_id).toBe(0);
      // Answered oldest first, as the dialog does.
      for (let i = 0; i < n; i++) {
        dispatchEvents([{ type: "ask_closed", server_id: "flood", ask_id: i, outcome: "answered" }]);
      }
      flush();
      const total = performance.now() - started;
      expect(queue().size).toBe(0);
      console.info(`10 000 asks: added in ${added.toFixed(1)} ms, added and removed in ${total.toFixed(1)} ms`);
    },
    10_000,
  );
});
