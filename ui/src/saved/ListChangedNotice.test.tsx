import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AppEvent } from "../bindings/AppEvent";
import { newServerState } from "../store";
import { ListChangedNotice } from "./ListChangedNotice";
import { noteListChanges, savedStore } from "./savedStore";

beforeEach(() => savedStore.reset());
afterEach(cleanup);

const changed = (kind: "tools_list_changed" | "prompts_list_changed", server = "demo"): AppEvent => ({
  type: "notification",
  server_id: server,
  notification: { kind },
});

describe("list_changed notices", () => {
  it("says which list changed, when, and whether it was refreshed", () => {
    const at = new Date(2026, 0, 2, 12, 3, 4).getTime();
    noteListChanges([changed("tools_list_changed"), changed("tools_list_changed"), changed("prompts_list_changed"), changed("tools_list_changed", "other")], at);
    expect(savedStore.getState().notices.demo?.map((n) => n.kind)).toEqual(["tools", "prompts"]);
    const lists = newServerState("demo").lists;
    render(<ListChangedNotice serverId="demo" lists={{ ...lists, tools: { status: "loaded", items: [], error: null } }} />);
    const notices = screen.getAllByTestId("list-changed-notice");
    expect(notices.map((n) => n.textContent)).toEqual([
      "Tools list changed at 12:03:04 — refreshed",
      "Prompts list changed at 12:03:04 — loads when you open its tab",
    ]);
  });

  it("ignores other notifications", () => {
    noteListChanges([{ type: "notification", server_id: "demo", notification: { kind: "resource_updated", uri: "demo://x" } }]);
    expect(savedStore.getState().notices).toEqual({});
  });
});
