import { beforeEach, describe, expect, it, vi } from "vitest";
import type { AppEvent } from "../bindings/AppEvent";
import type { ServerEntry } from "../bindings/ServerEntry";
import { exchange } from "./exchanges.fixtures";
import { resetAsks } from "./asks";
import {
  beginConnect,
  connections,
  resetConnections,
  select,
  setCatalog,
  setConnections,
} from "./connections";
import { dispatchEvents } from "./dispatcher";
import { resetLists, setList } from "./lists";
import { logs, resetLogs } from "./logs";
import { setFrameSchedule } from "./notifier";
import { resetTraffic, selectExchange, traffic } from "./traffic";

/** "The next frame" runs only when the test says so; every manager starts empty. */
const pending: Array<() => void> = [];
const flush = () => pending.splice(0).forEach((f) => f());
beforeEach(() => {
  setFrameSchedule((f) => pending.push(f));
  resetConnections();
  resetTraffic();
  resetLogs();
  resetLists();
  resetAsks();
  flush();
});

const server = (id: string) => connections.getState().servers[id]!;
const record = (id: string) => traffic.getState()[id]!;

/** The record of `server_id` now lists up to `listed_to`. */
const frames = (server_id: string, listed_to: number, violations = 0): AppEvent => ({
  type: "traffic_changed",
  server_id,
  summary: { listed_to, violations, not_checked: 0 },
});

const entry = (id: string, name = id): ServerEntry => ({
  id,
  name,
  target: { transport: "stdio", command: "demo", args: [], env: [], cwd: null, secret_env: [] },
  era: "auto",
});

describe("dispatcher and managers: traffic summaries", () => {
  it("keeps each server's newest summary (never a row), and a repeat changes nothing", () => {
    dispatchEvents([frames("a", 2)]);
    flush();
    const before = record("a");
    dispatchEvents([frames("a", 5, 1), frames("b", 1)]);
    flush();
    expect(record("a").summary).toEqual({ listed_to: 5, violations: 1, not_checked: 0 });
    expect(record("b").summary.listed_to).toBe(1);
    expect(record("a")).not.toBe(before);
    const same = record("a");
    dispatchEvents([frames("a", 5, 1)]);
    flush();
    expect(record("a")).toBe(same);
  });

  it("tells the views once per frame however many summaries came", () => {
    const listener = vi.fn();
    traffic.subscribe(listener);
    dispatchEvents([frames("a", 1)]);
    dispatchEvents([frames("a", 2)]);
    dispatchEvents([frames("a", 3)]);
    expect(listener).not.toHaveBeenCalled();
    flush();
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe("dispatcher and managers: connections", () => {
  it("starts a fresh record when a new connection starts (seqs restart)", () => {
        dispatchEvents([
      { type: "status", server_id: "a", status: { state: "connecting" } },
      frames("a", 3),
      { type: "status", server_id: "a", status: { state: "ready", protocol_version: "2025-11-25" } },
      { type: "status", server_id: "a", status: { state: "disconnected" } },
    ]);
    flush();
    const before = server("a");
    expect(record("a").summary.listed_to).toBe(3);
    dispatchEvents([{ type: "status", server_id: "a", status: { state: "connecting" } }, frames("a", 1)]);
    flush();
    const after = server("a");
    expect(after.session).toBe(before.session + 1);
    expect(record("a").summary.listed_to).toBe(1);
    expect(after.identity).toBeNull();
  });

  it("asks for the identity of a server that became ready without one", () => {
        const effects = dispatchEvents([
      { type: "status", server_id: "a", status: { state: "connecting" } },
      { type: "status", server_id: "a", status: { state: "ready", protocol_version: "2025-06-18" } },
    ]);
    expect(effects.needIdentity).toEqual(["a"]);
    expect(server("a").status).toEqual({ state: "ready", protocol_version: "2025-06-18" });
  });

  it("asks for the catalog again when a server joined it from the command line", () => {
    expect(dispatchEvents([{ type: "catalog" }]).reloadCatalog).toBe(true);
    expect(dispatchEvents([{ type: "status", server_id: "a", status: { state: "connecting" } }]).reloadCatalog).toBe(false);
  });

  it("re-fetches a list on list_changed only when it was loaded", () => {
        setList("a", "tools", { status: "loaded", items: [], error: null });
    const effects = dispatchEvents([
      { type: "notification", server_id: "a", notification: { kind: "tools_list_changed" } },
      { type: "notification", server_id: "a", notification: { kind: "prompts_list_changed" } },
      { type: "notification", server_id: "a", notification: { kind: "tools_list_changed" } },
    ]);
    expect(effects.refetch).toEqual([{ serverId: "a", kind: "tools" }]);
  });

  it("puts stderr lines and log notifications in the console, in order", () => {
        dispatchEvents(
      [
        { type: "stderr", server_id: "a", lines: [{ seq: 2, wall_us: 5, mono_us: 1, text: "starting" }] },
        {
          type: "notification",
          server_id: "a",
          notification: { kind: "log", level: "warning", logger: "db", data: { msg: "slow" } },
        },
      ],
      10,
    );
    const entries = logs.getState()["a"]!.entries;
    expect(entries.map((e) => e.kind)).toEqual(["stderr", "log"]);
  });
});

describe("dispatcher and managers: catalog", () => {
  it("selects the first entry, and keeps a valid selection after a removal", () => {
        setCatalog([entry("a"), entry("b")]);
    expect(connections.getState().selectedId).toBe("a");
    select("b");
    setCatalog([entry("a")]);
    expect(connections.getState().selectedId).toBe("a");
    setCatalog([]);
    expect(connections.getState().selectedId).toBeNull();
  });

  it("prefers a connected server when nothing valid is selected", () => {
        setConnections([
      { server_id: "demo", status: { state: "ready", protocol_version: "2025-11-25" }, identity: null },
    ]);
    setCatalog([entry("other"), entry("demo")]);
    expect(connections.getState().selectedId).toBe("demo");
  });

  it("keeps a user action's state reference stable when nothing changed", () => {
        setCatalog([entry("a")]);
    const state = connections.getState();
    select("a");
    expect(connections.getState()).toBe(state);
  });
});

describe("dispatcher and managers: connecting from the UI", () => {
  it("clears a stale failure and starts a fresh record at once", () => {
        dispatchEvents([
      { type: "status", server_id: "a", status: { state: "connecting" } },
      frames("a", 2),
      { type: "status", server_id: "a", status: { state: "failed", error: { kind: "internal", detail: "boom" }, stderr_tail: ["x"], diagnoses: [] } },
    ]);
    const failed = server("a");
    beginConnect("a");
    const connecting = server("a");
    expect(connecting.status).toEqual({ state: "connecting" });
    expect(connecting.busy).toBe("connecting");
    expect(connecting.session).toBe(failed.session + 1);
    flush();
    expect(record("a").summary.listed_to).toBe(0);
    // The app's own `connecting` event, arriving after, starts nothing new.
    dispatchEvents([{ type: "status", server_id: "a", status: { state: "connecting" } }, frames("a", 1)]);
    flush();
    const after = server("a");
    expect(after.session).toBe(connecting.session);
    expect(record("a").summary.listed_to).toBe(1);
  });
});

describe("dispatcher and managers: HTTP exchanges", () => {
  it("appends exchanges in place, per server, and starts afresh on a new connection", () => {
        dispatchEvents([
      { type: "status", server_id: "a", status: { state: "connecting" } },
      { type: "http", server_id: "a", exchange: exchange(1) },
    ]);
    const before = record("a");
    const exchanges = before.network.exchanges;
    dispatchEvents([
      { type: "http", server_id: "a", exchange: exchange(2) },
      { type: "http", server_id: "a", exchange: exchange(2) },
      { type: "http", server_id: "b", exchange: exchange(1) },
    ]);
    const after = record("a");
    expect(after).toBe(before);
    expect(after.network.exchanges).toBe(exchanges);
    expect(exchanges.map((e) => e.seq)).toEqual([1, 2]);
    expect(record("b").network.exchanges).toHaveLength(1);

    selectExchange("a", 2);
    dispatchEvents([{ type: "status", server_id: "a", status: { state: "disconnected" } }]);
    beginConnect("a");
    const fresh = record("a");
    expect(fresh.network.exchanges).toEqual([]);
    expect(fresh.networkView.selectedSeq).toBeNull();
  });
});
