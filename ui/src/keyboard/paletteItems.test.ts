import { describe, expect, it } from "vitest";
import type { ServerEntry } from "../bindings/ServerEntry";
import { promptView, resourceView, toolView } from "../testing/views";
import { filterPalette, paletteItems, VIEWS, type PaletteSource } from "./paletteItems";

const entry = (id: string, name: string, url?: string): ServerEntry => ({
  id,
  name,
  era: "auto",
  target: url
    ? { transport: "http", url, headers: [], oauth: null }
    : { transport: "stdio", command: "periscope-demo-server", args: [], env: [], cwd: null },
} as unknown as ServerEntry);

const source = (change: Partial<PaletteSource> = {}): PaletteSource => ({
  catalog: [entry("demo", "Demo server"), entry("remote", "Remote", "https://example.test/mcp")],
  statuses: { demo: "ready", remote: "disconnected" },
  selectedId: "demo",
  tools: [
    toolView({ name: "add", description: "Adds two numbers" }),
    toolView({ name: "echo", title: "Echo" }),
  ],
  resources: [resourceView({ uri: "demo://readme", name: "readme" })],
  prompts: [promptView({ name: "greet", description: "Says hello" })],
  saved: [
    { id: "s1", server_id: "demo", name: "two plus three", kind: "tool", target: "add", arguments: { a: 2, b: 3 }, created_wall_us: 1 },
  ],
  remote: false,
  ...change,
});

const ids = (items: { id: string }[]) => items.map((i) => i.id);

describe("the palette's items", () => {
  it("reach every server, the selected server's lists and saved calls, the views and the actions", () => {
    const items = ids(paletteItems(source()));
    expect(items).toEqual(
      expect.arrayContaining([
        "server:demo",
        "disconnect:demo",
        "server:remote",
        "connect:remote",
        "tool:add",
        "tool:echo",
        "resource:demo://readme",
        "prompt:greet",
        "saved:s1",
        "action:add-server",
        "action:import",
        "action:reconnect",
        "action:call-tool",
        "action:rerun-last",
        "action:traffic-filter",
        "action:shortcuts",
        "action:about",
      ]),
    );
    for (const view of ["overview", "tools", "resources", "prompts", "saved", "requests", "tasks", "check", "load", "evals", "traffic", "network", "console"]) {
      expect(items).toContain(`view:${view}`);
    }
    expect(new Set(items).size).toBe(items.length);
  });

  it("offers the OAuth view only for a remote server", () => {
    expect(ids(paletteItems(source()))).not.toContain("view:oauth");
    expect(ids(paletteItems(source({ remote: true })))).toContain("view:oauth");
    expect(VIEWS).toHaveLength(16);
  });

  it("without a selected server offers servers and app actions only", () => {
    const items = paletteItems(source({ selectedId: null }));
    expect(items.every((i) => i.group === "Actions" || i.group === "Servers")).toBe(true);
    expect(ids(items)).not.toContain("action:reconnect");
  });

  it("names what each item does", () => {
    const items = paletteItems(source());
    expect(items.find((i) => i.id === "tool:add")?.action).toEqual({ type: "open-tool", serverId: "demo", name: "add" });
    expect(items.find((i) => i.id === "connect:remote")?.action).toEqual({ type: "connect", id: "remote" });
    expect(items.find((i) => i.id === "saved:s1")?.action.type).toBe("run-saved");
  });
});

describe("filtering the palette", () => {
  const items = paletteItems(source());

  it("lists everything in order when nothing is typed", () => {
    expect(filterPalette(items, "  ")).toEqual(items);
  });

  it("puts the item named exactly what was typed first", () => {
    expect(filterPalette(items, "add")[0]?.id).toBe("tool:add");
    expect(ids(filterPalette(items, "add"))).toContain("action:add-server");
  });

  it("matches fuzzily, on keywords too", () => {
    expect(ids(filterPalette(items, "trfc")).slice(0, 2).sort()).toEqual(["action:traffic-filter", "view:traffic"]);
    expect(ids(filterPalette(items, "shw cnsl"))).toContain("view:console");
    expect(filterPalette(items, "version")[0]?.id).toBe("action:about");
    expect(filterPalette(items, "settings")[0]?.id).toBe("action:settings");
    expect(ids(filterPalette(items, "dark mode"))).toContain("action:settings");
  });

  it("drops what does not match at all", () => {
    expect(filterPalette(items, "zzzzqq")).toEqual([]);
  });
});
