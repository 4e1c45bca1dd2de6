// Saved calls, history, the save dialog and list-changed notices: a small store of their own
// (read with useSyncExternalStore), so the app's main store stays as it is.
import { useSyncExternalStore } from "react";
import type { AppEvent } from "../bindings/AppEvent";
import type { CallKind } from "../bindings/CallKind";
import type { HistoryEntry } from "../bindings/HistoryEntry";
import type { SavedCall } from "../bindings/SavedCall";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { errorMessage, hasTauri, ipc, type JsonObject } from "../ipc";
import { isObject } from "../json";
import { store, type RequestState } from "../store";
import { savedIpc } from "./ipc";
import { historyEntry, uniqueName, type FinishedCall } from "./logic";

/** A re-run from the Saved tab, shown inline under its row. */
export interface Run {
  kind: CallKind;
  target: string;
  state: RequestState;
}

export interface ServerSaved {
  status: "idle" | "loading" | "loaded";
  calls: SavedCall[];
  /** Newest first. */
  history: HistoryEntry[];
  error: string | null;
  /** Keyed by the saved call's or history entry's id. */
  runs: Record<string, Run>;
}

export interface SaveDialog {
  serverId: string;
  kind: CallKind;
  target: string;
  args: JsonObject;
  name: string;
  error: string | null;
}

export interface ListNotice {
  id: number;
  kind: "tools" | "resources" | "prompts";
  wallMs: number;
}

export interface SavedState {
  servers: Record<string, ServerSaved>;
  dialog: SaveDialog | null;
  notices: Record<string, ListNotice[]>;
}

const empty = (): ServerSaved => ({ status: "idle", calls: [], history: [], error: null, runs: {} });

let state: SavedState = { servers: {}, dialog: null, notices: {} };
const listeners = new Set<() => void>();

export const savedStore = {
  getState: (): SavedState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  set(next: SavedState): void {
    state = next;
    for (const l of listeners) l();
  },
  reset(): void {
    this.set({ servers: {}, dialog: null, notices: {} });
  },
};

export function useSaved<T>(select: (s: SavedState) => T): T {
  return useSyncExternalStore(savedStore.subscribe, () => select(state));
}

const EMPTY = empty();
export const useServerSaved = (serverId: string): ServerSaved => useSaved((s) => s.servers[serverId] ?? EMPTY);

function updateServer(serverId: string, change: (s: ServerSaved) => ServerSaved): void {
  const current = state.servers[serverId] ?? empty();
  savedStore.set({ ...state, servers: { ...state.servers, [serverId]: change(current) } });
}

const setError = (serverId: string, error: string | null) => updateServer(serverId, (s) => ({ ...s, error }));

// ---------------------------------------------------------------------------------------------
// Loading and editing

export async function loadSaved(serverId: string): Promise<void> {
  updateServer(serverId, (s) => ({ ...s, status: "loading" }));
  try {
    const [calls, history] = await Promise.all([savedIpc.list(serverId), savedIpc.history(serverId)]);
    updateServer(serverId, (s) => ({ ...s, status: "loaded", calls, history, error: null }));
  } catch (error) {
    updateServer(serverId, (s) => ({ ...s, status: "loaded", error: `Could not load the saved calls: ${errorMessage(error)}` }));
  }
}

/** Loads once per app run (the lists then stay current as calls are made). */
export function ensureSaved(serverId: string): void {
  if ((state.servers[serverId]?.status ?? "idle") === "idle") void loadSaved(serverId);
}

/** Saves (adds or replaces) a call; resolves to an error message or null. */
export async function putCall(call: SavedCall): Promise<string | null> {
  try {
    const calls = await savedIpc.put(call);
    updateServer(call.server_id, (s) => ({ ...s, calls, error: null }));
    return null;
  } catch (error) {
    return `Could not save "${call.name}": ${errorMessage(error)}`;
  }
}

export async function removeCall(call: SavedCall): Promise<void> {
  try {
    const calls = await savedIpc.remove(call.id);
    updateServer(call.server_id, (s) => ({ ...s, calls, error: null }));
  } catch (error) {
    setError(call.server_id, `Could not delete "${call.name}": ${errorMessage(error)}`);
  }
}

export async function clearHistory(serverId: string): Promise<void> {
  try {
    await savedIpc.clearHistory(serverId);
    updateServer(serverId, (s) => ({ ...s, history: [], error: null }));
  } catch (error) {
    setError(serverId, `Could not clear the history: ${errorMessage(error)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// History

/** Records a finished call in the history (persisted by the Rust side). */
export async function recordCall(call: FinishedCall): Promise<void> {
  if (!hasTauri()) return;
  try {
    const entry = await savedIpc.record(historyEntry(call, crypto.randomUUID()));
    updateServer(call.serverId, (s) => ({ ...s, history: [entry, ...s.history] }));
  } catch (error) {
    setError(call.serverId, `Could not record the call in the history: ${errorMessage(error)}`);
  }
}

function request(serverId: string, kind: CallKind, target: string, args: JsonObject): Promise<JsonValue> {
  if (kind === "tool") return ipc.callTool(serverId, target, args);
  if (kind === "resource") return ipc.readResource(serverId, target);
  const strings: Record<string, string> = {};
  for (const [k, v] of Object.entries(args)) strings[k] = typeof v === "string" ? v : JSON.stringify(v);
  return ipc.getPrompt(serverId, target, strings);
}

/** Runs a saved call or history entry again; the result shows under its row (key). */
export async function runCall(serverId: string, key: string, kind: CallKind, target: string, args: JsonObject): Promise<void> {
  const setRun = (run: RequestState) =>
    updateServer(serverId, (s) => ({ ...s, runs: { ...s.runs, [key]: { kind, target, state: run } } }));
  const startedWallUs = Date.now() * 1000;
  const started = performance.now();
  setRun({ status: "running", result: null, error: null, durationMs: null });
  let result: JsonValue | null = null;
  let error: string | null = null;
  let rpc: FinishedCall["rpc"];
  try {
    result = await request(serverId, kind, target, args);
  } catch (e) {
    error = errorMessage(e);
    if (isObject(e as JsonValue) && typeof (e as JsonObject).code === "number") {
      rpc = { code: (e as JsonObject).code as number, data: (e as JsonObject).data ?? null };
    }
  }
  const durationMs = performance.now() - started;
  setRun({ status: error === null ? "done" : "error", result, error, durationMs });
  await recordCall({ serverId, kind, target, args, startedWallUs, durationMs, result, error, rpc });
}

export function closeRun(serverId: string, key: string): void {
  updateServer(serverId, (s) => {
    const runs = { ...s.runs };
    delete runs[key];
    return { ...s, runs };
  });
}

// ---------------------------------------------------------------------------------------------
// The "Save call" dialog

/**
 * Asks for a name, then saves the call for the server (the selected one unless given). The
 * Tools, Resources and Prompts tabs call this from their "Save call" buttons.
 */
export function saveCallDialog(kind: CallKind, target: string, args: JsonObject, serverId?: string): void {
  const server = serverId ?? store.getState().selectedId;
  if (!server) return;
  ensureSaved(server);
  const taken = (state.servers[server]?.calls ?? []).map((c) => c.name);
  savedStore.set({
    ...state,
    dialog: { serverId: server, kind, target, args, name: uniqueName(target, taken), error: null },
  });
}

export function setDialogName(name: string): void {
  if (state.dialog) savedStore.set({ ...state, dialog: { ...state.dialog, name, error: null } });
}

export function closeDialog(): void {
  savedStore.set({ ...state, dialog: null });
}

export async function confirmDialog(): Promise<void> {
  const dialog = state.dialog;
  if (!dialog) return;
  const name = dialog.name.trim();
  if (name === "") {
    savedStore.set({ ...state, dialog: { ...dialog, error: "Give the saved call a name." } });
    return;
  }
  const error = await putCall({
    id: crypto.randomUUID(),
    server_id: dialog.serverId,
    name,
    kind: dialog.kind,
    target: dialog.target,
    arguments: dialog.args,
    created_wall_us: Date.now() * 1000,
  });
  if (error) savedStore.set({ ...state, dialog: state.dialog && { ...state.dialog, error } });
  else closeDialog();
}

// ---------------------------------------------------------------------------------------------
// list_changed notices ("Tools list changed at 12:03:04 — refreshed")

let noticeId = 0;
const NOTICE_KINDS = {
  tools_list_changed: "tools",
  resources_list_changed: "resources",
  prompts_list_changed: "prompts",
} as const;

/** Notes every list_changed notification in a batch of events. */
export function noteListChanges(events: readonly AppEvent[], nowMs: number = Date.now()): void {
  let notices = state.notices;
  for (const event of events) {
    if (event.type !== "notification") continue;
    const kind = NOTICE_KINDS[event.notification.kind as keyof typeof NOTICE_KINDS] as ListNotice["kind"] | undefined;
    if (!kind) continue;
    noticeId += 1;
    // One notice per kind: the newest replaces the older one.
    const others = (notices[event.server_id] ?? []).filter((n) => n.kind !== kind);
    notices = { ...notices, [event.server_id]: [...others, { id: noticeId, kind, wallMs: nowMs }] };
  }
  if (notices !== state.notices) savedStore.set({ ...state, notices });
}

export function dismissNotice(serverId: string, id: number): void {
  const list = (state.notices[serverId] ?? []).filter((n) => n.id !== id);
  savedStore.set({ ...state, notices: { ...state.notices, [serverId]: list } });
}
