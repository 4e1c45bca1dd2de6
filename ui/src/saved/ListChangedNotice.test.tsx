import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AppEvent } from "../bindings/AppEvent";
import { ListChangedNotice } from "./ListChangedNotice";
import { dispatchEvents } from "../state/dispatcher";
import { idleLists, lists, resetLists } from "../state/lists";

beforeEach(() => resetLists());
afterEach(cleanup);

const changed = (kind: "tools_list_changed" | "prompts_list_changed", server = "demo"): AppEvent => ({
  type: "notification",
  server_id: server,
  notification: { kind },
});

describe("list_changed notices", () => {
  it("says which list changed, when, and whether it was refreshed", () => {
    const at = new Date(2026, 0, 2, 12, 3, 4).getTime();
    dispatchEvents([changed("tools_list_changed"), changed("tools_list_changed"), changed("prompts_list_changed"), changed("tools_list_changed", "other")], at * 1000);
    expect(lists.getState().notices.demo?.map((n) => n.kind)).toEqual(["tools", "prompts"]);
    const idle = idleLists();
    render(<ListChangedNotice serverId="demo" lists={{ ...idle, tools: { status: "loaded", items: [], error: null } }} />);
    const notices = screen.getAllByTestId("list-changed-notice");
    expect(notices.map((n) => n.textContent)).toEqual([
      "Tools list changed at 12:03:04 — refreshed",
      "Prompts list changed at 12:03:04 — loads when you open its tab",
    ]);
  });

  it("ignores other notifications", () => {
    dispatchEvents([{ type: "notification", server_id: "demo", notification: { kind: "resource_updated", uri: "demo://x" } }]);
    expect(lists.getState().notices).toEqual({});
  });
});
