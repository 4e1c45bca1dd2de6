// What the UI does with each batch of live events beyond storing them: the toasts for what the
// user cannot see, the lists to fetch again, the identities and the catalog to reload.
import type { AppEvent } from "../bindings/AppEvent";
import type { HistoryEntry } from "../bindings/HistoryEntry";
import { listErrorToast, showToast, toastsForEvents } from "../feedback/toasts";
import type { ListKind } from "../ipc";
import { connections, type TabId } from "../state/connections";
import { dispatchEvents } from "../state/dispatcher";
import { serverLists } from "../state/lists";
import { reloadCatalog } from "./catalog";
import { refreshConnections } from "./connections";
import { loadList } from "./lists";
import { followToastLink } from "./toastLinks";

const serverName = (id: string): string => connections.getState().catalog.find((e) => e.id === id)?.name ?? id;

/** The tab where a call of each kind shows its result. */
const RESULT_TAB: Record<HistoryEntry["kind"], TabId> = { tool: "tools", resource: "resources", prompt: "prompts" };
/** The tab that shows each list. */
const LIST_TAB: Record<ListKind, TabId> = {
  tools: "tools",
  resources: "resources",
  resource_templates: "resources",
  prompts: "prompts",
};

/** Whether the user looks at this server's tab (or one of them) in a window they can see. */
function looksAt(serverId: string, tabs: readonly TabId[]): boolean {
  if (typeof document !== "undefined" && document.visibilityState === "hidden") return false;
  const { selectedId, servers } = connections.getState();
  const tab = servers[serverId]?.tab;
  return selectedId === serverId && tab !== undefined && tabs.includes(tab);
}

/** Every batch of live events: routed by the dispatcher, then what it asks to fetch. */
export function handleEvents(events: AppEvent[]): void {
  // The states before the batch tell a dropped connection from one the user closed.
  const before = connections.getState().servers;
  const effects = dispatchEvents(events);
  // A call's result is seen on its tab, or on Saved (re-runs): a long call that ends out of sight gets a toast.
  const watching = (id: string, kind: HistoryEntry["kind"]) => looksAt(id, [RESULT_TAB[kind], "saved"]);
  for (const toast of toastsForEvents(events, (id) => before[id], serverName, watching)) showToast(toast, followToastLink);
  for (const { serverId, kind } of effects.refetch) void refetchList(serverId, kind);
  if (effects.needIdentity.length > 0) void refreshConnections(false);
  if (effects.reloadCatalog) void reloadCatalog();
}

/**
 * A list again, after the server said it changed. A failure shows in the list; for a list the
 * user is not looking at, a toast says so too, linked to the error's frame.
 */
async function refetchList(id: string, kind: ListKind): Promise<void> {
  const sinceUs = Date.now() * 1000;
  await loadList(id, kind);
  const list = serverLists(id)[kind];
  if (list.status !== "error" || looksAt(id, [LIST_TAB[kind]])) return;
  showToast(listErrorToast(id, serverName(id), kind, list.error ?? "", sinceUs), followToastLink);
}
