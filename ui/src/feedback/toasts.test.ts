import { afterEach, describe, expect, it } from "vitest";
import type { HistoryEntry } from "../bindings/HistoryEntry";
import type { ServerEntry } from "../bindings/ServerEntry";
import { applyLanguage } from "../i18n";
import { newServerState } from "../state/connections";
import { answerFilter, catalogToast, linkLabel, listErrorToast, toastsForEvents } from "./toasts";

const history = (outcome: HistoryEntry["outcome"], duration_us = 10): HistoryEntry => ({
  id: "h1",
  server_id: "demo",
  kind: "tool",
  target: "fail",
  arguments: {},
  started_wall_us: 1_000,
  duration_us,
  outcome,
  result_preview: null,
  truncated: false,
  origin: { by: "user" },
});

const ready = { ...newServerState("demo"), status: { state: "ready" as const, protocol_version: "2025-11-25" } };
const name = (id: string) => (id === "demo" ? "Demo server" : id);
const event = (entry: HistoryEntry) => ({ type: "history" as const, server_id: "demo", entry });

describe("toasts for events", () => {
  afterEach(() => applyLanguage("en"));

  const away = () => false;

  it("say a call failed, with a link to its answer frame, and nothing for a quick call that went well", () => {
    const toasts = toastsForEvents([event(history("is_error")), event(history("ok"))], () => ready, name, away);
    expect(toasts).toHaveLength(1);
    expect(toasts[0]).toMatchObject({
      kind: "error",
      message: "Call of fail failed",
      detail: "Demo server: the tool reported an error.",
      link: { to: "answer", serverId: "demo", method: "tools/call", sinceUs: 1_000 },
    });
    expect(toastsForEvents([event(history("protocol_error"))], () => ready, name, away)[0]?.detail).toBe(
      "Demo server: the server answered with an error.",
    );
  });

  it("say a long call finished only when the user was not watching its result, linked to its frame", () => {
    const long = event({ ...history("ok", 4_200_000), kind: "resource", target: "demo://big" });
    const away = () => false;
    expect(toastsForEvents([long], () => ready, name, away)).toEqual([
      {
        kind: "success",
        message: "Read of demo://big finished",
        detail: "Demo server: it took 4.2 s.",
        link: { to: "answer", serverId: "demo", method: "resources/read", sinceUs: 1_000 },
      },
    ]);
    // Watched, or quick: no toast. Without a `watching`, no success toast at all.
    expect(toastsForEvents([long], () => ready, name, () => true)).toEqual([]);
    expect(toastsForEvents([event(history("ok", 900_000))], () => ready, name, away)).toEqual([]);
    expect(toastsForEvents([long], () => ready, name)).toEqual([]);
  });

  it("say a connection dropped, linked to its stderr or its last frame, but not when the user disconnected it", () => {
    const failed = (stderr_tail: string[]) => ({
      type: "status" as const,
      server_id: "demo",
      status: {
        state: "failed" as const,
        error: {
          kind: "connection_ended" as const,
          cause: { kind: "process" as const, end: { kind: "exited" as const, code: 1 }, shutdown: null },
        },
        stderr_tail,
        diagnoses: [],
      },
    });
    expect(toastsForEvents([failed(["panic: out of cheese"])], () => ready, name)[0]).toEqual({
      kind: "error",
      message: "Demo server: the connection dropped",
      detail: "The connection ended: the server exited with status 1.",
      link: { to: "console", serverId: "demo" },
    });
    expect(toastsForEvents([failed([])], () => ready, name)[0]?.link).toEqual({ to: "lastFrame", serverId: "demo" });
    const closed = { type: "status" as const, server_id: "demo", status: { state: "disconnected" as const } };
    expect(toastsForEvents([closed], () => ready, name)[0]).toMatchObject({ detail: undefined, link: { to: "lastFrame" } });
    expect(toastsForEvents([failed([])], () => ({ ...ready, busy: "disconnecting" }), name)).toEqual([]);
    expect(toastsForEvents([failed([])], () => newServerState("demo"), name)).toEqual([]);
  });

  it("say nothing of a failure the user watches: the result pane says it", () => {
    expect(toastsForEvents([event(history("is_error"))], () => ready, name, () => true)).toEqual([]);
  });

  it("speak the current language", () => {
    applyLanguage("zh-Hans");
    const [toast] = toastsForEvents([event(history("is_error"))], () => ready, name, away);
    expect(toast?.message).toBe("调用 fail 失败");
    expect(linkLabel(toast!.link!)).toBe("显示帧");
  });
});

describe("the list toast", () => {
  it("says which list could not be refreshed and links to the list's answer", () => {
    expect(listErrorToast("demo", "Demo server", "resource_templates", "boom", 5)).toEqual({
      kind: "error",
      message: "Demo server: could not refresh the resource templates",
      detail: "boom",
      link: { to: "answer", serverId: "demo", method: "resources/templates/list", sinceUs: 5 },
    });
  });
});

describe("the catalog toast", () => {
  const e = (id: string): ServerEntry => ({ id, name: `S ${id}` }) as unknown as ServerEntry;
  it("names what was added", () => {
    expect(catalogToast([e("a")], [e("a"), e("b")])?.message).toBe("Added “S b” to the servers");
    expect(catalogToast([], [e("a"), e("b"), e("c"), e("d")])).toMatchObject({ message: "Added 4 servers", detail: "S a, S b, S c, …" });
    expect(catalogToast([], [e("a"), e("b")])).toMatchObject({ message: "Added 2 servers", detail: "S a, S b" });
    expect(catalogToast([e("a"), e("b")], [e("a")])).toBeNull();
  });
});

describe("the frame a toast links to", () => {
  it("is the newest answer to the method since the request started (a filter the engine runs)", () => {
    const filter = answerFilter("tools/call", 1_000);
    expect(filter.kinds).toEqual(["response", "error_response"]);
    expect(filter.method).toBe("tools/call");
    expect(filter.from_wall_us).toBe(1_000);
    expect(filter.text).toBeNull();
  });

  it("has a button that says where it goes", () => {
    expect(linkLabel({ to: "answer", serverId: "demo", method: "tools/call", sinceUs: 0 })).toBe("Show frame");
    expect(linkLabel({ to: "console", serverId: "demo" })).toBe("Show stderr");
    expect(linkLabel({ to: "lastFrame", serverId: "demo" })).toBe("Show last frame");
  });
});
