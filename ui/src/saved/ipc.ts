// The Rust commands behind saved calls, the call history and the Overview's server utilities.
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
  /** Records a call; the result comes back cut to 64 KB when it was bigger. */
  record: (entry: HistoryEntry) => invoke<HistoryEntry>("history_record", { entry }),
  clearHistory: (serverId: string) => invoke<void>("history_clear", { serverId }),
  setLogLevel: (serverId: string, level: string) => invoke<void>("set_log_level", { serverId, level }),
  /** The round trip of a ping, in µs. */
  ping: (serverId: string) => invoke<number>("ping_server", { serverId }),
};
