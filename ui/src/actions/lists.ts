// A server's lists (tools, resources, templates, prompts): loaded the first time their tab is
// shown and again when the server says they changed. A reply for an older session is dropped.
import { errorMessage, ipc, type ListKind } from "../ipc";
import { loadFirstPage } from "../resources/paging";
import { serverState } from "../state/connections";
import { itemsOf } from "../resources/paging";
import { offers, serverLists, setList } from "../state/lists";

/** Loads a list the first time its tab is shown while the server is ready. */
export function ensureList(id: string, kind: ListKind): void {
  const server = serverState(id);
  if (!server || server.status.state !== "ready") return;
  if (serverLists(id)[kind].status !== "idle" || !offers(server, kind)) return;
  void loadList(id, kind);
}

export async function loadList(id: string, kind: ListKind): Promise<void> {
  // Resources and templates load page by page (resources/paging.ts): the first page here.
  if (kind === "resources" || kind === "resource_templates") return loadFirstPage(id, kind);
  const server = serverState(id);
  if (!server) return;
  const session = server.session;
  const previous = serverLists(id)[kind];
  setList(id, kind, { ...previous, status: "loading", error: null });
  try {
    const listed = await ipc.listItems(id, kind);
    if (serverState(id)?.session !== session) return;
    setList(id, kind, {
      status: "loaded",
      items: itemsOf(listed.list, kind),
      error: null,
      cache: listed.cache,
      pinChanges: listed.pin_changes,
    });
  } catch (error) {
    if (serverState(id)?.session !== session) return;
    setList(id, kind, { status: "error", items: previous.items, error: errorMessage(error) });
  }
}
