import { beforeEach, describe, expect, it } from "vitest";
import type { HistoryEntry } from "../bindings/HistoryEntry";
import type { AppEvent } from "../bindings/AppEvent";
import { dispatchEvents } from "./dispatcher";
import { HISTORY_CAP, resetSaved, saved, uniqueName } from "./saved";

const entry = (id: string, server_id = "demo"): HistoryEntry => ({
  id,
  server_id,
  kind: "tool",
  target: "add",
  arguments: {},
  started_wall_us: 1,
  duration_us: 2,
  outcome: "ok",
  result_preview: null,
  truncated: false,
  origin: { by: "user" },
});

const pushed = (e: HistoryEntry): AppEvent => ({ type: "history", server_id: e.server_id, entry: e });
const history = (id: string) => saved.getState().servers[id]?.history.map((e) => e.id);

beforeEach(resetSaved);

describe("history events", () => {
  it("put each recorded call first in its server's history, once", () => {
    dispatchEvents([pushed(entry("h1")), pushed(entry("h2")), pushed(entry("x1", "other")), pushed(entry("h2"))]);
    expect(history("demo")).toEqual(["h2", "h1"]);
    expect(history("other")).toEqual(["x1"]);
  });

  it("keep no more than the engine's cap, dropping the oldest", () => {
    dispatchEvents(Array.from({ length: HISTORY_CAP + 2 }, (_, n) => pushed(entry(`h${n}`))));
    const ids = history("demo")!;
    expect(ids).toHaveLength(HISTORY_CAP);
    expect(ids[0]).toBe(`h${HISTORY_CAP + 1}`);
    expect(ids).not.toContain("h0");
  });
});

describe("a new save's name", () => {
  it("is the target's, numbered so it never clashes", () => {
    expect(uniqueName("add", [])).toBe("add");
    expect(uniqueName("add", ["add", "add (2)"])).toBe("add (3)");
  });
});
