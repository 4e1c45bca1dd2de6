// Saved calls and history: each server's saved calls, its call history (recorded by the Rust
// side, which pushes each new entry as a `history` event), re-runs from the Saved tab and the
// "Save call" dialog.
import type { CallKind } from "../bindings/CallKind";
import type { HistoryEntry } from "../bindings/HistoryEntry";
import type { SavedCall } from "../bindings/SavedCall";
import type { PromptResultView } from "../bindings/PromptResultView";
import type { ReadResultView } from "../bindings/ReadResultView";
import type { ToolResultView } from "../bindings/ToolResultView";
import i18n from "../i18n";
import { errorMessage, ipc, savedIpc, type JsonObject } from "../ipc";
import { track, type RequestState } from "./calls";
import { connections } from "./connections";
import { Notifier, useNotifier, withEntry } from "./notifier";

/** The engine keeps this many history entries per server (HISTORY_CAP in saved_calls.rs). */
export const HISTORY_CAP = 1000;

/** A re-run from the Saved tab, shown inline under its row, with the result its kind gives. */
export type Run =
  | { kind: "tool"; target: string; state: RequestState<ToolResultView> }
  | { kind: "resource"; target: string; state: RequestState<ReadResultView> }
  | { kind: "prompt"; target: string; state: RequestState<PromptResultView> };

export interface ServerSaved {
  status: "idle" | "loading" | "loaded";
  calls: SavedCall[];
  /** Newest first. */
  history: HistoryEntry[];
  error: string | null;
  /** Keyed by the saved call's or history entry's id. */
  runs: Record<string, Run>;
  /** The history entry another view linked to (an eval trace's call): shown and marked. */
  focus: string | null;
}

export interface SaveDialog {
  serverId: string;
  kind: CallKind;
  target: string;
  args: JsonObject;
  name: string;
  error: string | null;
}

export interface SavedState {
  servers: Record<string, ServerSaved>;
  dialog: SaveDialog | null;
}

const empty = (): ServerSaved => ({ status: "idle", calls: [], history: [], error: null, runs: {}, focus: null });

export const saved = new Notifier<SavedState>({ servers: {}, dialog: null });

/** For tests: forget everything. */
export function resetSaved(): void {
  saved.update(() => ({ servers: {}, dialog: null }));
}

export const useSaved = <T>(select: (s: SavedState) => T): T => useNotifier(saved, select);

const EMPTY = empty();
export const useServerSaved = (serverId: string): ServerSaved => useSaved((s) => s.servers[serverId] ?? EMPTY);

function updateServer(serverId: string, change: (s: ServerSaved) => ServerSaved): void {
  saved.update((state) => ({ ...state, servers: withEntry(state.servers, serverId, empty, change) }));
}

/** Marks history entry `entryId` as the one to show (null: none). */
export function focusHistory(serverId: string, entryId: string | null): void {
  updateServer(serverId, (s) => (s.focus === entryId ? s : { ...s, focus: entryId }));
}

const setError = (serverId: string, error: string | null) => updateServer(serverId, (s) => ({ ...s, error }));

// ---------------------------------------------------------------------------------------------
// Loading and editing

export async function loadSaved(serverId: string): Promise<void> {
  updateServer(serverId, (s) => ({ ...s, status: "loading" }));
  try {
    const [calls, history] = await Promise.all([savedIpc.list(serverId), savedIpc.history(serverId)]);
    updateServer(serverId, (s) => ({ ...s, status: "loaded", calls, history: mergeHistory(history, s.history), error: null }));
  } catch (error) {
    updateServer(serverId, (s) => ({ ...s, status: "loaded", error: i18n.t("state:saved.loadFailed", { error: errorMessage(error) }) }));
  }
}

/** Loads once per app run (the lists then stay current as calls are made). */
export function ensureSaved(serverId: string): void {
  if ((saved.getState().servers[serverId]?.status ?? "idle") === "idle") void loadSaved(serverId);
}

/** Saves (adds or replaces) a call; resolves to an error message or null. */
export async function putCall(call: SavedCall): Promise<string | null> {
  try {
    const calls = await savedIpc.put(call);
    updateServer(call.server_id, (s) => ({ ...s, calls, error: null }));
    return null;
  } catch (error) {
    return i18n.t("state:saveFailed", { name: call.name, error: errorMessage(error) });
  }
}

export async function removeCall(call: SavedCall): Promise<void> {
  try {
    const calls = await savedIpc.remove(call.id);
    updateServer(call.server_id, (s) => ({ ...s, calls, error: null }));
  } catch (error) {
    setError(call.server_id, i18n.t("state:saved.deleteFailed", { name: call.name, error: errorMessage(error) }));
  }
}

export async function clearHistory(serverId: string): Promise<void> {
  try {
    await savedIpc.clearHistory(serverId);
    updateServer(serverId, (s) => ({ ...s, history: [], error: null }));
  } catch (error) {
    setError(serverId, i18n.t("state:saved.clearFailed", { error: errorMessage(error) }));
  }
}

/** After Settings cleared every server's history: the lists shown empty too. */
export function historyClearedEverywhere(): void {
  saved.update((state) => ({
    ...state,
    servers: Object.fromEntries(
      Object.entries(state.servers).map(([id, s]) => [id, { ...s, history: [], runs: {} }]),
    ),
  }));
}

// ---------------------------------------------------------------------------------------------
// History

/** Entries pushed while the list loaded, then the loaded list, without repeats, newest first. */
function mergeHistory(loaded: HistoryEntry[], pushed: HistoryEntry[]): HistoryEntry[] {
  const known = new Set(loaded.map((e) => e.id));
  return [...pushed.filter((e) => !known.has(e.id)), ...loaded].slice(0, HISTORY_CAP);
}

/** A `history` event: the Rust side recorded a call; it goes first, the oldest past the cap go. */
export function addHistoryEntry(serverId: string, entry: HistoryEntry): void {
  saved.updateSoon((state) => ({
    ...state,
    servers: withEntry(state.servers, serverId, empty, (s) =>
      s.history.some((e) => e.id === entry.id) ? s : { ...s, history: [entry, ...s.history].slice(0, HISTORY_CAP) },
    ),
  }));
}

/**
 * Runs a saved call or history entry again; the result shows under its row (key). The Rust
 * side records the run in the history.
 */
export function runCall(serverId: string, key: string, kind: CallKind, target: string, args: JsonObject): Promise<void> {
  const setRun = (run: Run) => updateServer(serverId, (s) => ({ ...s, runs: { ...s.runs, [key]: run } }));
  switch (kind) {
    case "tool":
      return track(
        () => ipc.callTool(serverId, target, args).then((called) => called.result),
        (state) => setRun({ kind, target, state }),
        args,
      );
    case "resource":
      return track(() => ipc.readResource(serverId, target), (state) => setRun({ kind, target, state }), args);
    case "prompt": {
      const strings: Record<string, string> = {};
      for (const [k, v] of Object.entries(args)) strings[k] = typeof v === "string" ? v : JSON.stringify(v);
      return track(() => ipc.getPrompt(serverId, target, strings), (state) => setRun({ kind, target, state }), args);
    }
  }
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

/** `name`, or `name (2)`, `name (3)`… whichever is not taken yet. */
export function uniqueName(name: string, taken: readonly string[]): string {
  const base = name.trim() || "call";
  if (!taken.includes(base)) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base} (${n})`;
    if (!taken.includes(candidate)) return candidate;
  }
}

/**
 * Asks for a name, then saves the call for the server (the selected one unless given). The
 * Tools, Resources and Prompts tabs call this from their "Save call" buttons.
 */
export function saveCallDialog(kind: CallKind, target: string, args: JsonObject, server?: string): void {
  const serverId = server ?? connections.getState().selectedId;
  if (!serverId) return;
  ensureSaved(serverId);
  const taken = (saved.getState().servers[serverId]?.calls ?? []).map((c) => c.name);
  saved.update((state) => ({
    ...state,
    dialog: { serverId, kind, target, args, name: uniqueName(target, taken), error: null },
  }));
}

export function setDialogName(name: string): void {
  saved.update((state) => (state.dialog ? { ...state, dialog: { ...state.dialog, name, error: null } } : state));
}

export function closeDialog(): void {
  saved.update((state) => ({ ...state, dialog: null }));
}

export async function confirmDialog(): Promise<void> {
  const dialog = saved.getState().dialog;
  if (!dialog) return;
  const name = dialog.name.trim();
  if (name === "") {
    saved.update((state) => ({ ...state, dialog: { ...dialog, error: i18n.t("state:saved.nameMissing") } }));
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
  if (error) saved.update((state) => ({ ...state, dialog: state.dialog && { ...state.dialog, error } }));
  else closeDialog();
}
