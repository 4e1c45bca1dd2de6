import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ViewPage } from "../bindings/ViewPage";
import { resourceView } from "../testing/views";
import { resourcesIpc } from "../ipc";
import { loadAll, loadFirstPage, loadMore } from "./paging";
import { newServerState, updateServer } from "../state/connections";
import { resetLists, serverLists } from "../state/lists";

const ID = "paging-test";
const resource = (n: number) => resourceView({ uri: `demo://text/${n}` });
/** 26 resources in pages of 10, cursors "c10" and "c20". */
function page(cursor: string | null): ViewPage {
  const from = cursor === null ? 0 : Number(cursor.slice(1));
  const items = Array.from({ length: Math.min(10, 26 - from) }, (_, i) => resource(from + i + 1));
  // The engine's caching hints: the first page fresh from the server, later ones from its cache.
  const reused = cursor === null ? null : { age_ms: 1_000, left_ms: 29_000 };
  return { list: { kind: "resources", items }, next_cursor: from + 10 < 26 ? `c${from + 10}` : null, cache: { ttl_ms: 30_000, scope: "public", reused } };
}

const list = () => serverLists(ID).resources;

beforeEach(() => {
  updateServer(ID, () => newServerState(ID));
  resetLists();
});

describe("paging", () => {
  it("loads the first page, then more, then all, passing the cursors back as they came", async () => {
    const listPage = vi.spyOn(resourcesIpc, "listPage").mockImplementation((_id, _kind, cursor) => Promise.resolve(page(cursor)));
    await loadFirstPage(ID, "resources");
    expect(list()).toMatchObject({ status: "loaded", nextCursor: "c10" });
    expect(list().items).toHaveLength(10);
    expect(list().cache).toEqual({ ttl_ms: 30_000, scope: "public", reused: null });
    await loadMore(ID, "resources");
    expect(list().cache?.reused).toEqual({ age_ms: 1_000, left_ms: 29_000 });
    expect(list().items).toHaveLength(20);
    await loadAll(ID, "resources");
    expect(list().items).toHaveLength(26);
    expect(list()).toMatchObject({ status: "loaded", nextCursor: null });
    expect(listPage.mock.calls.map((c) => c[2])).toEqual([null, "c10", "c20"]);
    // Nothing more to load: no request.
    await loadMore(ID, "resources");
    expect(listPage).toHaveBeenCalledTimes(3);
    // A refresh starts again from the first page.
    await loadFirstPage(ID, "resources");
    expect(list().items).toHaveLength(10);
  });

  it("stops when the server repeats a cursor, keeping the pages so far", async () => {
    vi.spyOn(resourcesIpc, "listPage").mockImplementation((_id, _kind, cursor) =>
      Promise.resolve({ list: { kind: "resources", items: [resource(cursor === null ? 1 : 2)] }, next_cursor: "same", cache: null }),
    );
    await loadFirstPage(ID, "resources");
    await loadAll(ID, "resources");
    expect(list().status).toBe("error");
    expect(list().error).toContain('repeated the cursor "same"');
    expect(list().items).toHaveLength(2);
  });

  it("keeps the earlier list when the first page fails", async () => {
    vi.spyOn(resourcesIpc, "listPage").mockResolvedValueOnce(page(null)).mockRejectedValueOnce("server gone");
    await loadFirstPage(ID, "resources");
    await loadFirstPage(ID, "resources");
    expect(list()).toMatchObject({ status: "error", error: "server gone", nextCursor: "c10" });
    expect(list().items).toHaveLength(10);
  });
});
