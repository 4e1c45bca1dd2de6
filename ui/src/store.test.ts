import { describe, expect, it, vi } from "vitest";
import type { AppEvent } from "./bindings/AppEvent";
import type { ServerEntry } from "./bindings/ServerEntry";
import { Store } from "./store";
import { exchange } from "./network/testExchanges";
import { row } from "./traffic/testRows";

/** A store whose "next frame" runs only when the test says so. */
function testStore() {
  const pending: Array<() => void> = [];
  const store = new Store(undefined, (flush) => pending.push(flush));
  const flush = () => pending.splice(0).forEach((f) => f());
  return { store, flush, pending };
}

const frames = (server_id: string, ...seqs: number[]): AppEvent => ({
  type: "frames",
  server_id,
  rows: seqs.map((s) => row(s)),
});

const entry = (id: string, name = id): ServerEntry => ({
  id,
  name,
  target: { transport: "stdio", command: "demo", args: [], env: [], cwd: null },
});

describe("Store: traffic rows", () => {
  it("appends rows to one array per server without copying it or the server state", () => {
    const { store } = testStore();
    store.applyEvents([frames("a", 1, 2)]);
    const server = store.getState().servers["a"]!;
    const rows = server.traffic.rows;
    const version = server.traffic.version;
    store.applyEvents([frames("a", 3), frames("a", 4, 5)]);
    const after = store.getState().servers["a"]!;
    expect(after).toBe(server); // no new state object for a traffic batch
    expect(after.traffic.rows).toBe(rows); // the same array, grown in place
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(after.traffic.version).toBeGreaterThan(version);
  });

  it("ignores rows it already has (seq not past the last one)", () => {
    const { store } = testStore();
    store.applyEvents([frames("a", 1, 2, 3), frames("a", 2, 3, 4)]);
    expect(store.getState().servers["a"]!.traffic.rows.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
  });

  it("keeps servers apart", () => {
    const { store } = testStore();
    store.applyEvents([frames("a", 1), frames("b", 1, 2)]);
    expect(store.getState().servers["a"]!.traffic.rows).toHaveLength(1);
    expect(store.getState().servers["b"]!.traffic.rows).toHaveLength(2);
  });

  it("records flags by seq", () => {
    const { store } = testStore();
    store.applyEvents([
      frames("a", 1, 2),
      { type: "frame_flagged", server_id: "a", seq: 2, flag: { kind: "unknown_response_id", id: 9 } },
    ]);
    expect(store.getState().servers["a"]!.traffic.flags.get(2)).toEqual([{ kind: "unknown_response_id", id: 9 }]);
  });

  it("tells the views once per frame however many batches came", () => {
    const { store, flush } = testStore();
    const listener = vi.fn();
    store.subscribe(listener);
    store.applyEvents([frames("a", 1)]);
    store.applyEvents([frames("a", 2)]);
    store.applyEvents([frames("a", 3)]);
    expect(listener).not.toHaveBeenCalled();
    flush();
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe("Store: connections", () => {
  it("starts a fresh record when a new connection starts (seqs restart)", () => {
    const { store } = testStore();
    store.applyEvents([
      { type: "status", server_id: "a", status: { state: "connecting" } },
      frames("a", 1, 2, 3),
      { type: "status", server_id: "a", status: { state: "ready", protocol_version: "2025-11-25" } },
      { type: "status", server_id: "a", status: { state: "disconnected" } },
    ]);
    const before = store.getState().servers["a"]!;
    expect(before.traffic.rows).toHaveLength(3);
    store.applyEvents([{ type: "status", server_id: "a", status: { state: "connecting" } }, frames("a", 1)]);
    const after = store.getState().servers["a"]!;
    expect(after.session).toBe(before.session + 1);
    expect(after.traffic.rows.map((r) => r.seq)).toEqual([1]);
    expect(after.identity).toBeNull();
  });

  it("asks for the identity of a server that became ready without one", () => {
    const { store } = testStore();
    const effects = store.applyEvents([
      { type: "status", server_id: "a", status: { state: "connecting" } },
      { type: "status", server_id: "a", status: { state: "ready", protocol_version: "2025-06-18" } },
    ]);
    expect(effects.needIdentity).toEqual(["a"]);
    expect(store.getState().servers["a"]!.status).toEqual({ state: "ready", protocol_version: "2025-06-18" });
  });

  it("re-fetches a list on list_changed only when it was loaded", () => {
    const { store } = testStore();
    store.setList("a", "tools", { status: "loaded", items: [], error: null });
    const effects = store.applyEvents([
      { type: "notification", server_id: "a", notification: { kind: "tools_list_changed" } },
      { type: "notification", server_id: "a", notification: { kind: "prompts_list_changed" } },
      { type: "notification", server_id: "a", notification: { kind: "tools_list_changed" } },
    ]);
    expect(effects.refetch).toEqual([{ serverId: "a", kind: "tools" }]);
  });

  it("puts stderr lines and log notifications in the console, in order", () => {
    const { store } = testStore();
    store.applyEvents(
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
    const entries = store.getState().servers["a"]!.console.entries;
    expect(entries.map((e) => e.kind)).toEqual(["stderr", "log"]);
  });
});

describe("Store: catalog", () => {
  it("selects the first entry, and keeps a valid selection after a removal", () => {
    const { store } = testStore();
    store.setCatalog([entry("a"), entry("b")]);
    expect(store.getState().selectedId).toBe("a");
    store.select("b");
    store.setCatalog([entry("a")]);
    expect(store.getState().selectedId).toBe("a");
    store.setCatalog([]);
    expect(store.getState().selectedId).toBeNull();
  });

  it("prefers a connected server when nothing valid is selected", () => {
    const { store } = testStore();
    store.setConnections([
      { server_id: "demo", status: { state: "ready", protocol_version: "2025-11-25" }, identity: null },
    ]);
    store.setCatalog([entry("other"), entry("demo")]);
    expect(store.getState().selectedId).toBe("demo");
  });

  it("keeps a user action's state reference stable when nothing changed", () => {
    const { store } = testStore();
    store.setCatalog([entry("a")]);
    const state = store.getState();
    store.select("a");
    expect(store.getState()).toBe(state);
  });
});

describe("Store: connecting from the UI", () => {
  it("clears a stale failure and starts a fresh record at once", () => {
    const { store } = testStore();
    store.applyEvents([
      { type: "status", server_id: "a", status: { state: "connecting" } },
      frames("a", 1, 2),
      { type: "status", server_id: "a", status: { state: "failed", error: "boom", stderr_tail: ["x"] } },
    ]);
    const failed = store.getState().servers["a"]!;
    store.beginConnect("a");
    const connecting = store.getState().servers["a"]!;
    expect(connecting.status).toEqual({ state: "connecting" });
    expect(connecting.busy).toBe("connecting");
    expect(connecting.session).toBe(failed.session + 1);
    expect(connecting.traffic.rows).toEqual([]);
    // The app's own `connecting` event, arriving after, starts nothing new.
    store.applyEvents([{ type: "status", server_id: "a", status: { state: "connecting" } }, frames("a", 1)]);
    const after = store.getState().servers["a"]!;
    expect(after.session).toBe(connecting.session);
    expect(after.traffic.rows.map((r) => r.seq)).toEqual([1]);
  });
});

describe("Store: HTTP exchanges", () => {
  it("appends exchanges in place, per server, and starts afresh on a new connection", () => {
    const { store } = testStore();
    store.applyEvents([
      { type: "status", server_id: "a", status: { state: "connecting" } },
      { type: "http", server_id: "a", exchange: exchange(1) },
    ]);
    const server = store.getState().servers["a"]!;
    const exchanges = server.network.exchanges;
    store.applyEvents([
      { type: "http", server_id: "a", exchange: exchange(2) },
      { type: "http", server_id: "a", exchange: exchange(2) },
      { type: "http", server_id: "b", exchange: exchange(1) },
    ]);
    const after = store.getState().servers["a"]!;
    expect(after).toBe(server);
    expect(after.network.exchanges).toBe(exchanges);
    expect(exchanges.map((e) => e.seq)).toEqual([1, 2]);
    expect(store.getState().servers["b"]!.network.exchanges).toHaveLength(1);

    store.updateServer("a", (s) => ({ ...s, networkView: { selectedSeq: 2 } }));
    store.applyEvents([{ type: "status", server_id: "a", status: { state: "disconnected" } }]);
    store.beginConnect("a");
    const fresh = store.getState().servers["a"]!;
    expect(fresh.network.exchanges).toEqual([]);
    expect(fresh.networkView.selectedSeq).toBeNull();
  });
});
