// Asks: the server requests waiting for the user (oldest first, across servers), and per server
// what was decided this session, what the engine warned about, the URL elicitations the server
// said are complete, and the roots and reply rule.
import type { Decision } from "../bindings/Decision";
import type { HostSettings } from "../bindings/HostSettings";
import type { PendingAsk } from "../bindings/PendingAsk";
import type { Problem } from "../bindings/Problem";
import { onSessionStart } from "./connections";
import { Notifier, useNotifier, withEntry } from "./notifier";
import { PendingAsks } from "./pendingAsks";

/** The server's requests to the client this session: what was decided, what was refused. */
export interface RequestsState {
  decisions: Decision[];
  /** Refusals and other things the engine warned about, newest last. */
  /** Warnings as the app sent them (typed), worded where they are shown. */
  warnings: Array<{ problem: Problem; wallUs: number }>;
  /** URL elicitations the server said are complete (notifications/elicitation/complete). */
  completed: string[];
  /** Roots and reply rule; null until loaded. */
  settings: HostSettings | null;
  settingsError: string | null;
}

export interface AsksState {
  /** Server requests waiting for the user, oldest first (across servers); changed in place,
   * so select `pending.first()` or `pending.size`, not `pending` itself. */
  pending: PendingAsks;
  servers: Record<string, RequestsState>;
}

const fresh = (): RequestsState => ({ decisions: [], warnings: [], completed: [], settings: null, settingsError: null });

export const asks = new Notifier<AsksState>({ pending: new PendingAsks(), servers: {} });

export const useAsks = <T>(selector: (state: AsksState) => T): T => useNotifier(asks, selector);

const EMPTY = fresh();
/** One server's requests for a view. */
export const useServerRequests = (id: string): RequestsState => useAsks((s) => s.servers[id] ?? EMPTY);

function updateSoon(id: string, change: (s: RequestsState) => RequestsState): void {
  asks.updateSoon((state) => ({ ...state, servers: withEntry(state.servers, id, fresh, change) }));
}

/** An ask arrived (live, or fetched at startup): added unless known. O(1) per ask. */
export function addAsks(added: readonly PendingAsk[], soon = false): void {
  const change = (state: AsksState): AsksState => {
    let any = false;
    for (const ask of added) any = state.pending.add(ask) || any;
    // A new outer object (two fields) tells the views; the queue itself is not copied.
    return any ? { ...state } : state;
  };
  if (soon) asks.updateSoon(change);
  else asks.update(change);
}

/** The user answered (the panel goes at once), or the app said the ask closed. */
export function removeAsk(askId: number, soon = false): void {
  const change = (state: AsksState): AsksState => (state.pending.remove(askId) ? { ...state } : state);
  if (soon) asks.updateSoon(change);
  else asks.update(change);
}

export function addDecision(id: string, decision: Decision): void {
  updateSoon(id, (s) => ({ ...s, decisions: [...s.decisions, decision] }));
}

export function addWarning(id: string, problem: Problem, wallUs: number): void {
  updateSoon(id, (s) => ({ ...s, warnings: [...s.warnings, { problem, wallUs }] }));
}

export function addCompleted(id: string, elicitationId: string): void {
  updateSoon(id, (s) => ({ ...s, completed: [...s.completed, elicitationId] }));
}

export function setHostSettings(id: string, settings: HostSettings | null, error: string | null): void {
  asks.update((state) => ({
    ...state,
    servers: withEntry(state.servers, id, fresh, (s) => ({ ...s, settings: settings ?? s.settings, settingsError: error })),
  }));
}

// A new connection: this session's decisions, warnings and completions start empty.
onSessionStart((id) => updateSoon(id, (s) => ({ ...s, decisions: [], warnings: [], completed: [] })));

/** For tests: forget everything. */
export function resetAsks(): void {
  asks.update(() => ({ pending: new PendingAsks(), servers: {} }));
}
