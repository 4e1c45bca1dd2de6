// Tool calls started from the Tools tab, by server and tool: the call id given to `call_tool`,
// when it started, the latest `notifications/progress` (AppEvent `call_progress`) and whether
// the user cancelled it. The entry stays after the call ends, so the result can say it was
// cancelled; the next call of the same tool replaces it.
import { useSyncExternalStore } from "react";
import type { AppEvent } from "../bindings/AppEvent";

export interface RunningCall {
  serverId: string;
  tool: string;
  callId: string;
  /** Date.now() when the call was sent. */
  startedAt: number;
  progress: number | null;
  total: number | null;
  message: string | null;
  cancelled: boolean;
}

const calls = new Map<string, RunningCall>();
const byCallId = new Map<string, string>();
const listeners = new Set<() => void>();
let counter = 0;

const keyOf = (serverId: string, tool: string) => `${serverId}\u0000${tool}`;

function emit() {
  for (const listener of listeners) listener();
}

/** Records a new call and returns its id (unique in this page). */
export function startCall(serverId: string, tool: string, now = Date.now()): string {
  counter += 1;
  const callId = `ui-${now.toString(36)}-${counter}`;
  const key = keyOf(serverId, tool);
  const previous = calls.get(key);
  if (previous) byCallId.delete(previous.callId);
  calls.set(key, { serverId, tool, callId, startedAt: now, progress: null, total: null, message: null, cancelled: false });
  byCallId.set(callId, key);
  emit();
  return callId;
}

export function markCancelled(serverId: string, tool: string): RunningCall | undefined {
  const key = keyOf(serverId, tool);
  const call = calls.get(key);
  if (!call) return undefined;
  const cancelled = { ...call, cancelled: true };
  calls.set(key, cancelled);
  emit();
  return cancelled;
}

/** Takes the progress events out of a batch (the rest is the store's business). */
export function noteCallProgress(events: readonly AppEvent[]): void {
  let changed = false;
  for (const event of events) {
    if (event.type !== "call_progress") continue;
    const key = byCallId.get(event.call_id);
    const call = key === undefined ? undefined : calls.get(key);
    if (!key || !call || call.serverId !== event.server_id) continue;
    calls.set(key, { ...call, progress: event.progress, total: event.total, message: event.message ?? call.message });
    changed = true;
  }
  if (changed) emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function runningCall(serverId: string, tool: string): RunningCall | undefined {
  return calls.get(keyOf(serverId, tool));
}

export function useRunningCall(serverId: string, tool: string): RunningCall | undefined {
  return useSyncExternalStore(subscribe, () => runningCall(serverId, tool));
}
