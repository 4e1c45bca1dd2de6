// The command palette's items, built from the UI's state (the catalog, the selected server's
// lists and saved calls) and filtered with cmdk's fuzzy scorer. Pure: an item names what it
// does (a PaletteAction), and keyboard/runPalette.ts does it, so the items can be tested.
// Labels are in the UI's language (made each time the items are built); in another language
// than English an item's English label is one of its keywords too, so typing either finds it.
import { defaultFilter } from "cmdk";
import type { SavedCall } from "../bindings/SavedCall";
import type { ServerEntry } from "../bindings/ServerEntry";
import type { ConnectionStatus } from "../bindings/ConnectionStatus";
import type { PromptView } from "../bindings/PromptView";
import type { ResourceView } from "../bindings/ResourceView";
import type { ToolView } from "../bindings/ToolView";
import i18n from "../i18n";
import { promptInfo } from "../prompts/prompts";
import { resourceInfo } from "../resources/resources";
import type { TabId } from "../state/connections";
import { toolInfo } from "../tools/tools";
import type { KeyboardKey, ShortcutAction } from "./shortcuts";

/** A group's id (not shown: GROUP_LABEL names it). */
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
  | { type: "audit-connected" }
  | { type: "shortcuts" }
  | { type: "welcome" };

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
  tools: readonly ToolView[];
  resources: readonly ResourceView[];
  prompts: readonly PromptView[];
  saved: readonly SavedCall[];
  /** Whether the selected server is remote (its OAuth tab exists). */
  remote: boolean;
}

/** How each group is named in the palette. */
export const GROUP_LABEL: Record<PaletteGroup, KeyboardKey> = {
  Actions: "groups.actions",
  Servers: "groups.servers",
  Tools: "groups.tools",
  Resources: "groups.resources",
  Prompts: "groups.prompts",
  "Saved calls": "groups.saved",
  Views: "groups.views",
};

/** Each view (tab): its name, and the palette item that shows it. */
export const VIEWS: ReadonlyArray<{ tab: TabId; label: KeyboardKey; show: KeyboardKey }> = [
  { tab: "overview", label: "views.overview", show: "palette.show.overview" },
  { tab: "tools", label: "views.tools", show: "palette.show.tools" },
  { tab: "resources", label: "views.resources", show: "palette.show.resources" },
  { tab: "prompts", label: "views.prompts", show: "palette.show.prompts" },
  { tab: "skills", label: "views.skills", show: "palette.show.skills" },
  { tab: "saved", label: "views.saved", show: "palette.show.saved" },
  { tab: "requests", label: "views.requests", show: "palette.show.requests" },
  { tab: "tasks", label: "views.tasks", show: "palette.show.tasks" },
  { tab: "check", label: "views.check", show: "palette.show.check" },
  { tab: "load", label: "views.load", show: "palette.show.load" },
  { tab: "evals", label: "views.evals", show: "palette.show.evals" },
  { tab: "oauth", label: "views.oauth", show: "palette.show.oauth" },
  { tab: "traffic", label: "views.traffic", show: "palette.show.traffic" },
  { tab: "timeline", label: "views.timeline", show: "palette.show.timeline" },
  { tab: "network", label: "views.network", show: "palette.show.network" },
  { tab: "console", label: "views.console", show: "palette.show.console" },
];

type Options = Record<string, string | number>;

const here = (key: KeyboardKey, options: Options = {}): string => i18n.t(key, { ns: "keyboard", ...options });
const english = (key: KeyboardKey, options: Options = {}): string =>
  i18n.t(key, { ns: "keyboard", lng: "en", ...options });

/**
 * An item's label in the UI's language and its keywords: the English words of `keywords`, and
 * in another language its own words and the English label too.
 */
function named(key: KeyboardKey, keywords: KeyboardKey, options: Options = {}): { label: string; keywords: string[] } {
  const label = here(key, options);
  const words = [english(keywords)];
  if (here(keywords) !== words[0]) words.push(here(keywords));
  const englishLabel = english(key, options);
  if (englishLabel !== label) words.push(englishLabel);
  return { label, keywords: words };
}

/** The keywords of `key` (English, and the UI's language's when it is another). */
function keywordsOf(key: KeyboardKey): string[] {
  const words = english(key);
  return here(key) === words ? [words] : [words, here(key)];
}

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
      keywords: keywordsOf("palette.keywords.server"),
      action: { type: "select-server", id: entry.id },
    });
    items.push(
      live
        ? {
            id: `disconnect:${entry.id}`,
            group: "Servers",
            ...named("palette.disconnect", "palette.keywords.disconnect", { name: entry.name }),
            action: { type: "disconnect", id: entry.id },
          }
        : {
            id: `connect:${entry.id}`,
            group: "Servers",
            ...named("palette.connect", "palette.keywords.connect", { name: entry.name }),
            shortcut: entry.id === source.selectedId ? "connect" : undefined,
            action: { type: "connect", id: entry.id },
          },
    );
  }
  return items;
}

function listItems(source: PaletteSource, serverId: string): PaletteItem[] {
  const items: PaletteItem[] = [];
  for (const view of source.tools) {
    const tool = toolInfo(view);
    if (!tool) continue;
    items.push({
      id: `tool:${tool.name}`,
      group: "Tools",
      label: tool.name,
      detail: short(tool.title ?? tool.description),
      keywords: [...keywordsOf("palette.keywords.tool"), tool.title ?? ""].filter(Boolean),
      action: { type: "open-tool", serverId, name: tool.name },
    });
  }
  for (const view of source.resources) {
    const resource = resourceInfo(view);
    if (!resource) continue;
    items.push({
      id: `resource:${resource.uri}`,
      group: "Resources",
      label: resource.title ?? resource.name ?? resource.uri,
      detail: resource.uri,
      keywords: [...keywordsOf("palette.keywords.resource"), resource.uri],
      action: { type: "open-resource", serverId, uri: resource.uri },
    });
  }
  for (const view of source.prompts) {
    const prompt = promptInfo(view);
    if (!prompt) continue;
    items.push({
      id: `prompt:${prompt.name}`,
      group: "Prompts",
      label: prompt.name,
      detail: short(prompt.title ?? prompt.description),
      keywords: [...keywordsOf("palette.keywords.prompt"), prompt.title ?? ""].filter(Boolean),
      action: { type: "open-prompt", serverId, name: prompt.name },
    });
  }
  for (const call of source.saved) {
    const { label, keywords } = named("palette.runSaved", "palette.keywords.saved", { name: call.name });
    items.push({
      id: `saved:${call.id}`,
      group: "Saved calls",
      label,
      detail: here(SAVED_DETAIL[call.kind], { target: call.target }),
      keywords: [...keywords, call.target],
      action: { type: "run-saved", call },
    });
  }
  return items;
}

const SAVED_DETAIL: Record<SavedCall["kind"], KeyboardKey> = {
  tool: "palette.savedDetail.tool",
  resource: "palette.savedDetail.resource",
  prompt: "palette.savedDetail.prompt",
};

/** An item of the Actions group. */
function action(
  id: string,
  key: KeyboardKey,
  keywords: KeyboardKey,
  act: PaletteAction,
  more: { detail?: KeyboardKey; shortcut?: ShortcutAction } = {},
): PaletteItem {
  return {
    id,
    group: "Actions",
    ...named(key, keywords),
    ...(more.detail ? { detail: here(more.detail) } : {}),
    ...(more.shortcut ? { shortcut: more.shortcut } : {}),
    action: act,
  };
}

function actionItems(source: PaletteSource): PaletteItem[] {
  const items: PaletteItem[] = [
    action("action:add-server", "palette.addServer", "palette.keywords.addServer", { type: "add-server" }),
    action("action:import", "palette.import", "palette.keywords.import", { type: "import" }, { detail: "palette.importDetail" }),
    action(
      "action:open-recording",
      "palette.openRecording",
      "palette.keywords.openRecording",
      { type: "shortcut", action: "open-recording" },
      { shortcut: "open-recording" },
    ),
  ];
  const id = source.selectedId;
  if (id !== null) {
    items.push(
      action("action:reconnect", "palette.reconnect", "palette.keywords.reconnect", { type: "reconnect", id }),
      action(
        "action:call-tool",
        "palette.callTool",
        "palette.keywords.callTool",
        { type: "shortcut", action: "call-tool" },
        { shortcut: "call-tool" },
      ),
      action(
        "action:rerun-last",
        "palette.rerunLast",
        "palette.keywords.rerunLast",
        { type: "shortcut", action: "rerun-last" },
        { shortcut: "rerun-last" },
      ),
      action(
        "action:traffic-filter",
        "palette.trafficFilter",
        "palette.keywords.trafficFilter",
        { type: "shortcut", action: "focus-traffic-filter" },
        { shortcut: "focus-traffic-filter" },
      ),
    );
  }
  items.push(
    action("action:shortcuts", "palette.shortcuts", "palette.keywords.shortcuts", { type: "shortcuts" }, { shortcut: "shortcuts" }),
    action("action:about", "palette.about", "palette.keywords.about", { type: "about" }),
    // The theme and the language are chosen in Settings: their words find it.
    action("action:settings", "palette.settings", "palette.keywords.settings", { type: "settings" }),
    action("action:audit-connected", "palette.auditConnected", "palette.keywords.auditConnected", { type: "audit-connected" }),
    action("action:welcome", "palette.welcome", "palette.keywords.welcome", { type: "welcome" }),
  );
  return items;
}

function viewItems(source: PaletteSource): PaletteItem[] {
  if (source.selectedId === null) return [];
  return VIEWS.filter((v) => source.remote || v.tab !== "oauth").map((v) => {
    const { label, keywords } = named(v.show, "palette.keywords.view");
    const names = [...new Set([english(v.label), here(v.label)])];
    return {
      id: `view:${v.tab}`,
      group: "Views" as const,
      label,
      keywords: [...keywords, ...names],
      action: { type: "tab" as const, tab: v.tab },
    };
  });
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
