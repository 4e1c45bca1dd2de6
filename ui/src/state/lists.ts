// Server lists: each server's tools, resources, resource templates and prompts as last listed,
// and the notices of the server's list_changed notifications ("Tools list changed at 12:03:04
// — refreshed"). A list_changed for a list already loaded asks for it again (`refetchKinds`).
import type { CacheHint } from "../bindings/CacheHint";
import type { ItemChange } from "../bindings/ItemChange";
import type { ServerNotification } from "../bindings/ServerNotification";
import type { PromptView } from "../bindings/PromptView";
import type { ResourceView } from "../bindings/ResourceView";
import type { TemplateView } from "../bindings/TemplateView";
import type { ToolView } from "../bindings/ToolView";
import type { ListKind } from "../ipc";
import { onSessionStart, type ServerState } from "./connections";
import { Notifier, useNotifier, withEntry } from "./notifier";

/** One list's state; its items are the engine's views of what the server listed. */
export interface ListState<T = ListItem> {
  status: "idle" | "loading" | "loaded" | "error";
  items: T[];
  error: string | null;
  /** For a list loaded page by page: the server's opaque cursor of the next page (never saved). */
  nextCursor?: string | null;
  /** The list's caching hints (modern era), from the engine; for a paged list, the last page's. */
  cache?: CacheHint | null;
  /** Tools only: each tool that differs from its pin (as first seen, or last accepted). */
  pinChanges?: ItemChange[];
}

/** The view each list's items are read as. */
export interface ListItemOf {
  tools: ToolView;
  resources: ResourceView;
  resource_templates: TemplateView;
  prompts: PromptView;
}

export type ListItem = ListItemOf[ListKind];

export type ServerLists = { [K in ListKind]: ListState<ListItemOf[K]> };

export interface ListNotice {
  id: number;
  kind: "tools" | "resources" | "prompts";
  wallMs: number;
}

export interface ListsState {
  servers: Record<string, ServerLists>;
  notices: Record<string, ListNotice[]>;
}

const idleList = <T>(): ListState<T> => ({ status: "idle", items: [], error: null });

export function idleLists(): ServerLists {
  return { tools: idleList(), resources: idleList(), resource_templates: idleList(), prompts: idleList() };
}

export const lists = new Notifier<ListsState>({ servers: {}, notices: {} });

export const useListsState = <T>(selector: (state: ListsState) => T): T => useNotifier(lists, selector);

const IDLE = idleLists();
/** One server's lists for a view. */
export const useServerLists = (id: string): ServerLists => useListsState((s) => s.servers[id] ?? IDLE);

export const serverLists = (id: string): ServerLists => lists.getState().servers[id] ?? IDLE;

export function setList<K extends ListKind>(id: string, kind: K, list: ListState<ListItemOf[K]>): void {
  lists.update((state) => ({
    ...state,
    servers: withEntry(state.servers, id, idleLists, (s) => ({ ...s, [kind]: list })),
  }));
}

/** True when the server's handshake says it offers this kind of list (or we don't know). */
export function offers(server: ServerState, kind: ListKind): boolean {
  const offers = server.identity?.offers;
  if (!offers || offers.unknown) return true;
  return kind === "tools" ? offers.tools : kind === "prompts" ? offers.prompts : offers.resources;
}

/** The lists a notification says changed. */
export function changedKinds(notification: ServerNotification): ListKind[] {
  switch (notification.kind) {
    case "tools_list_changed":
      return ["tools"];
    case "prompts_list_changed":
      return ["prompts"];
    case "resources_list_changed":
      return ["resources", "resource_templates"];
    default:
      return [];
  }
}

/** Of the lists a notification says changed, those loaded already (to fetch again). */
export function refetchKinds(id: string, notification: ServerNotification): ListKind[] {
  const current = serverLists(id);
  return changedKinds(notification).filter((kind) => current[kind].status !== "idle");
}

let noticeId = 0;
const NOTICE_KINDS = {
  tools_list_changed: "tools",
  resources_list_changed: "resources",
  prompts_list_changed: "prompts",
} as const;

/** Notes a list_changed notification (one notice per kind: the newest replaces the older one). */
export function noteListChange(id: string, notification: ServerNotification, nowMs: number): void {
  const kind = NOTICE_KINDS[notification.kind as keyof typeof NOTICE_KINDS] as ListNotice["kind"] | undefined;
  if (!kind) return;
  noticeId += 1;
  const notice = { id: noticeId, kind, wallMs: nowMs };
  lists.updateSoon((state) => {
    const others = (state.notices[id] ?? []).filter((n) => n.kind !== kind);
    return { ...state, notices: { ...state.notices, [id]: [...others, notice] } };
  });
}

export function dismissNotice(serverId: string, id: number): void {
  lists.update((state) => {
    const list = (state.notices[serverId] ?? []).filter((n) => n.id !== id);
    return { ...state, notices: { ...state.notices, [serverId]: list } };
  });
}

// A new connection: every list loads again.
onSessionStart((id) => {
  lists.updateSoon((state) => ({ ...state, servers: { ...state.servers, [id]: idleLists() } }));
});

/** For tests: forget everything. */
export function resetLists(): void {
  lists.update(() => ({ servers: {}, notices: {} }));
}
