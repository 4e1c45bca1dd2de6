// The command palette's items, built from the UI's state (the catalog, the selected server's
// lists and saved calls) and filtered with cmdk's fuzzy scorer. Pure: an item names what it
// does (a PaletteAction), and keyboard/runPalette.ts does it, so the items can be tested.
import { defaultFilter } from "cmdk";
import type { SavedCall } from "../bindings/SavedCall";
import type { ServerEntry } from "../bindings/ServerEntry";
import type { ConnectionStatus } from "../bindings/ConnectionStatus";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { promptInfo } from "../prompts/prompts";
import { resourceInfo } from "../resources/resources";
import type { TabId } from "../state/connections";
import { toolInfo } from "../tools/tools";
import type { ShortcutAction } from "./shortcuts";

export type PaletteGroup = "Actions" | "Servers" | "Tools" | "Resources" | "Prompts" | "Saved calls" | "Views";

export type PaletteAction =
  | { type: "select-server"; id: string }
  | { type: "connect"; id: string }
  | { type: "disconnect"; id: string }
  | { type: "open-tool"; serverId: string; name: string }
  | { type: "open-resource"; serverId: string; uri: string }
  | { type: "open-prompt"; serverId: string; name: string }
  | { type: "run-saved"; call: SavedCall }
  | { type: "tab"; tab: TabId }
  | { type: "add-server" }
  | { type: "import" }
  | { type: "reconnect"; id: string }
  | { type: "shortcut"; action: ShortcutAction }
  | { type: "about" }
  | { type: "settings" }
  | { type: "shortcuts" };

export interface PaletteItem {
  /** Unique among the items (the list's key). */
  id: string;
  group: PaletteGroup;
  label: string;
  /** A second line: a command, a URI, a description. */
  detail?: string;
  /** Words that also match (the group's noun, a title, a description). */
  keywords: string[];
  /** The shortcut that does the same, shown at the right. */
  shortcut?: ShortcutAction;
  action: PaletteAction;
}

/** What the palette is built from. */
export interface PaletteSource {
  catalog: readonly ServerEntry[];
  statuses: Readonly<Record<string, ConnectionStatus["state"] | undefined>>;
  selectedId: string | null;
  /** The selected server's lists (raw items, as listed) and saved calls. */
  tools: readonly JsonValue[];
  resources: readonly JsonValue[];
  prompts: readonly JsonValue[];
  saved: readonly SavedCall[];
  /** Whether the selected server is remote (its OAuth tab exists). */
  remote: boolean;
}

export const VIEWS: ReadonlyArray<{ tab: TabId; label: string }> = [
  { tab: "overview", label: "Overview" },
  { tab: "tools", label: "Tools" },
  { tab: "resources", label: "Resources" },
  { tab: "prompts", label: "Prompts" },
  { tab: "saved", label: "Saved" },
  { tab: "requests", label: "Requests" },
  { tab: "tasks", label: "Tasks" },
  { tab: "oauth", label: "OAuth" },
  { tab: "traffic", label: "Traffic" },
  { tab: "network", label: "Network" },
  { tab: "console", label: "Console" },
];

const short = (text: string | null | undefined, max = 80): string | undefined =>
  text ? (text.length > max ? `${text.slice(0, max - 1)}…` : text) : undefined;

function serverItems(source: PaletteSource): PaletteItem[] {
  const items: PaletteItem[] = [];
  for (const entry of source.catalog) {
    const state = source.statuses[entry.id] ?? "disconnected";
    const live = state === "ready" || state === "connecting";
    const target = entry.target.transport === "http" ? entry.target.url : entry.target.command;
    items.push({
      id: `server:${entry.id}`,
      group: "Servers",
      label: entry.name,
      detail: target,
      keywords: ["server", "select"],
      action: { type: "select-server", id: entry.id },
    });
    items.push(
      live
        ? {
            id: `disconnect:${entry.id}`,
            group: "Servers",
            label: `Disconnect ${entry.name}`,
            keywords: ["server", "stop"],
            action: { type: "disconnect", id: entry.id },
          }
        : {
            id: `connect:${entry.id}`,
            group: "Servers",
            label: `Connect ${entry.name}`,
            keywords: ["server", "start"],
            shortcut: entry.id === source.selectedId ? "connect" : undefined,
            action: { type: "connect", id: entry.id },
          },
    );
  }
  return items;
}

function listItems(source: PaletteSource, serverId: string): PaletteItem[] {
  const items: PaletteItem[] = [];
  for (const raw of source.tools) {
    const tool = toolInfo(raw);
    if (!tool) continue;
    items.push({
      id: `tool:${tool.name}`,
      group: "Tools",
      label: tool.name,
      detail: short(tool.title ?? tool.description),
      keywords: ["tool", tool.title ?? ""].filter(Boolean),
      action: { type: "open-tool", serverId, name: tool.name },
    });
  }
  for (const raw of source.resources) {
    const resource = resourceInfo(raw);
    if (!resource) continue;
    items.push({
      id: `resource:${resource.uri}`,
      group: "Resources",
      label: resource.title ?? resource.name ?? resource.uri,
      detail: resource.uri,
      keywords: ["resource", resource.uri],
      action: { type: "open-resource", serverId, uri: resource.uri },
    });
  }
  for (const raw of source.prompts) {
    const prompt = promptInfo(raw);
    if (!prompt) continue;
    items.push({
      id: `prompt:${prompt.name}`,
      group: "Prompts",
      label: prompt.name,
      detail: short(prompt.title ?? prompt.description),
      keywords: ["prompt", prompt.title ?? ""].filter(Boolean),
      action: { type: "open-prompt", serverId, name: prompt.name },
    });
  }
  for (const call of source.saved) {
    items.push({
      id: `saved:${call.id}`,
      group: "Saved calls",
      label: `Run “${call.name}” again`,
      detail: `${call.kind} ${call.target}`,
      keywords: ["saved", "re-run", call.target],
      action: { type: "run-saved", call },
    });
  }
  return items;
}

function actionItems(source: PaletteSource): PaletteItem[] {
  const items: PaletteItem[] = [
    { id: "action:add-server", group: "Actions", label: "Add server", keywords: ["new", "catalog"], action: { type: "add-server" } },
    {
      id: "action:import",
      group: "Actions",
      label: "Import servers",
      detail: "From Claude, Cursor, VS Code, Zed… or a command line",
      keywords: ["config", "host"],
      action: { type: "import" },
    },
  ];
  const id = source.selectedId;
  if (id !== null) {
    items.push(
      { id: "action:reconnect", group: "Actions", label: "Reconnect", keywords: ["restart", "server"], action: { type: "reconnect", id } },
      {
        id: "action:call-tool",
        group: "Actions",
        label: "Call the selected tool",
        keywords: ["run", "tool"],
        shortcut: "call-tool",
        action: { type: "shortcut", action: "call-tool" },
      },
      {
        id: "action:rerun-last",
        group: "Actions",
        label: "Re-run the last call",
        keywords: ["repeat", "again", "history"],
        shortcut: "rerun-last",
        action: { type: "shortcut", action: "rerun-last" },
      },
      {
        id: "action:traffic-filter",
        group: "Actions",
        label: "Filter the traffic",
        keywords: ["search", "frames", "focus"],
        shortcut: "focus-traffic-filter",
        action: { type: "shortcut", action: "focus-traffic-filter" },
      },
    );
  }
  items.push(
    { id: "action:shortcuts", group: "Actions", label: "Keyboard shortcuts", keywords: ["keys", "help"], shortcut: "shortcuts", action: { type: "shortcuts" } },
    { id: "action:about", group: "Actions", label: "About Periscope", keywords: ["version", "protocol", "revision"], action: { type: "about" } },
    { id: "action:settings", group: "Actions", label: "Settings", keywords: ["preferences", "theme", "dark mode", "timeout"], action: { type: "settings" } },
  );
  return items;
}

function viewItems(source: PaletteSource): PaletteItem[] {
  if (source.selectedId === null) return [];
  return VIEWS.filter((v) => source.remote || v.tab !== "oauth").map((v) => ({
    id: `view:${v.tab}`,
    group: "Views" as const,
    label: `Show ${v.label}`,
    keywords: ["view", "tab", v.label],
    action: { type: "tab" as const, tab: v.tab },
  }));
}

/** Every item, in the order the palette lists them before anything is typed. */
export function paletteItems(source: PaletteSource): PaletteItem[] {
  const lists = source.selectedId === null ? [] : listItems(source, source.selectedId);
  return [...actionItems(source), ...serverItems(source), ...lists, ...viewItems(source)];
}

/**
 * The items matching a query, best first (cmdk's fuzzy scorer on the label and keywords; an
 * item whose label is exactly the query comes first; ties keep the listing order).
 */
export function filterPalette(items: readonly PaletteItem[], query: string): PaletteItem[] {
  const q = query.trim();
  if (q === "") return [...items];
  const scored: Array<{ item: PaletteItem; score: number; at: number }> = [];
  items.forEach((item, at) => {
    const score = defaultFilter(item.label, q, item.keywords);
    if (score > 0) scored.push({ item, score: score + (item.label.toLowerCase() === q.toLowerCase() ? 1 : 0), at });
  });
  scored.sort((a, b) => b.score - a.score || a.at - b.at);
  return scored.map((s) => s.item);
}
