// Saved calls and the call history (the Rust side records each call itself and pushes a
// `history` event).
import { invoke } from "@tauri-apps/api/core";
import type { HistoryEntry } from "../bindings/HistoryEntry";
import type { SavedCall } from "../bindings/SavedCall";

export const savedIpc = {
  /** One server's saved calls (every server's when `serverId` is null), oldest first. */
  list: (serverId: string | null) => invoke<SavedCall[]>("saved_list", { serverId }),
  /** Adds, or replaces the saved call with the same id; returns that server's saved calls. */
  put: (call: SavedCall) => invoke<SavedCall[]>("saved_put", { call }),
  remove: (id: string) => invoke<SavedCall[]>("saved_remove", { id }),
  /** One server's history, newest first. */
  history: (serverId: string) => invoke<HistoryEntry[]>("history_list", { serverId }),
  clearHistory: (serverId: string) => invoke<void>("history_clear", { serverId }),
};
