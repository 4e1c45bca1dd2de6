import { useEffect } from "react";
import { ensureList } from "../actions/lists";
import type { ListKind } from "../ipc";
import type { ServerState } from "../state/connections";

/**
 * Loads the lists a tab shows the first time it is open while the server is ready (and again
 * after a reconnect). `kinds` must be a constant array.
 */
export function useLists(server: ServerState, kinds: readonly ListKind[]): void {
  const { id, session } = server;
  const state = server.status.state;
  useEffect(() => {
    if (state !== "ready") return;
    for (const kind of kinds) ensureList(id, kind);
  }, [id, session, state, kinds]);
}
