// Resources and resource templates, page by page: the first page when the tab opens (or the
// list changed), then Load more / Load all follow the server's opaque cursor. The cursor lives
// only in memory, with the list it continues.
import i18n from "../i18n";
import { errorMessage } from "../ipc";
import { resourcesIpc, type PagedKind } from "../ipc";
import { serverState } from "../state/connections";
import type { ListItems } from "../bindings/ListItems";
import type { ListKind } from "../ipc";
import { serverLists, setList, type ListItemOf } from "../state/lists";

/** A server that never stops paging is a bug: Load all stops after this many pages. */
export const MAX_PAGES = 1000;

const server = serverState;

/** The views of a list the engine sent, when it is the kind asked for (else none). */
export function itemsOf<K extends ListKind>(list: ListItems, kind: K): ListItemOf[K][] {
  return list.kind === kind ? (list.items as ListItemOf[K][]) : [];
}

/** Loads the first page, replacing what was listed. */
export function loadFirstPage(id: string, kind: PagedKind): Promise<void> {
  return loadPages(id, kind, "first");
}

/** Appends the next page. */
export function loadMore(id: string, kind: PagedKind): Promise<void> {
  return loadPages(id, kind, "more");
}

/** Appends every remaining page. */
export function loadAll(id: string, kind: PagedKind): Promise<void> {
  return loadPages(id, kind, "all");
}

async function loadPages<K extends PagedKind>(id: string, kind: K, how: "first" | "more" | "all"): Promise<void> {
  const start = server(id);
  if (!start) return;
  const session = start.session;
  const previous = serverLists(id)[kind];
  if (how !== "first" && (previous.status === "loading" || !previous.nextCursor)) return;
  let items: ListItemOf[K][] = how === "first" ? [] : previous.items;
  let cursor: string | null = how === "first" ? null : (previous.nextCursor ?? null);
  const seen = new Set<string>();
  setList(id, kind, { ...previous, status: "loading", error: null });
  try {
    for (let pages = 0; ; pages += 1) {
      if (pages >= MAX_PAGES) throw new Error(i18n.t("resources:paging.endless", { pages: MAX_PAGES }));
      if (cursor !== null) {
        if (seen.has(cursor)) throw new Error(i18n.t("resources:paging.repeated", { cursor: JSON.stringify(cursor) }));
        seen.add(cursor);
      }
      const page = await resourcesIpc.listPage(id, kind, cursor);
      if (server(id)?.session !== session) return;
      items = [...items, ...itemsOf(page.list, kind)];
      cursor = page.next_cursor;
      const done = how !== "all" || cursor === null;
      setList(id, kind, { status: done ? "loaded" : "loading", items, error: null, nextCursor: cursor, cache: page.cache });
      if (done) return;
    }
  } catch (error) {
    if (server(id)?.session !== session) return;
    // A failed first page keeps what was listed before; a failed next page keeps the pages so far.
    const kept = how === "first" ? previous.items : items;
    const next = how === "first" ? (previous.nextCursor ?? null) : cursor;
    setList(id, kind, { status: "error", items: kept, error: errorMessage(error), nextCursor: next });
  }
}
