// Running calls: the requests the user made (tool calls, resource reads, prompt gets) and how
// each ended, per server and target; and for tool calls from the Tools tab, the call id given
// to `call_tool`, the latest `notifications/progress` and whether the user cancelled it. The
// progress entry stays after the call ends, so the result can say it was cancelled; the next
// call of the same tool replaces it. The history of calls is the Rust side's (state/saved.ts).
import type { CacheHint } from "../bindings/CacheHint";
import type { PromptResultView } from "../bindings/PromptResultView";
import type { ReadResultView } from "../bindings/ReadResultView";
import type { ToolResultView } from "../bindings/ToolResultView";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { asCallError, errorMessage, ipc, type JsonObject } from "../ipc";
import type { Diagnosis } from "../bindings/Diagnosis";
import type { Finding } from "../bindings/Finding";
import type { TaskEntry } from "../bindings/TaskEntry";
import type { UrlRequired } from "../bindings/UrlRequired";
import { Notifier, useNotifier, withEntry } from "./notifier";
import { noteTask } from "./tasks";

/**
 * One request the user made (a tool call, a resource read, a prompt get) and how it ended: its
 * result as the engine read it (`V`, with the JSON as sent in its `raw`).
 */
export interface RequestState<V> {
  status: "running" | "done" | "error";
  result: V | null;
  error: string | null;
  /** How long it took, measured here for the display (the history has the engine's timing). */
  durationMs: number | null;
  /** While running: when it was sent (ms since the epoch), for the elapsed time shown. */
  startedAt?: number;
  /**
   * For a JSON-RPC error answer: its code and data, and the pages to visit before retrying when
   * the engine found it a URL-elicitation-required error (`urlRequired`, else null).
   */
  rpcError?: { code: number; data: JsonValue | null; urlRequired: UrlRequired[] | null; args: JsonObject };
  /** What the connection doctor says to do about the failure (the engine's diagnoses). */
  diagnoses?: Diagnosis[];
  /** For a resource read: its caching hints, from the engine. */
  cache?: CacheHint | null;
  /** For a tool call the server made a task: that task, which the app follows (Tasks tab). */
  becameTask?: TaskEntry | null;
  /** For a tool call: what its result holds that is aimed at the model (the engine's audit). */
  findings?: Finding[];
}

/** What each kind of request gives back, read by the engine. */
interface Views {
  /** By tool name. */
  tools: ToolResultView;
  /** By resource URI. */
  reads: ReadResultView;
  /** By prompt name. */
  gets: PromptResultView;
}

export type ServerCalls = { [P in keyof Views]: Record<string, RequestState<Views[P]>> };

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

export interface CallsState {
  servers: Record<string, ServerCalls>;
  /** Tool calls with a call id, by server and tool (keyOf). */
  running: Record<string, RunningCall>;
}

const fresh = (): ServerCalls => ({ tools: {}, reads: {}, gets: {} });

export const calls = new Notifier<CallsState>({ servers: {}, running: {} });

export const useCalls = <T>(selector: (state: CallsState) => T): T => useNotifier(calls, selector);

const EMPTY = fresh();
/** One server's requests for a view. */
export const useServerCalls = (id: string): ServerCalls => useCalls((s) => s.servers[id] ?? EMPTY);

export const serverCalls = (id: string): ServerCalls => calls.getState().servers[id] ?? EMPTY;

function save<P extends keyof Views>(id: string, part: P, key: string, request: RequestState<Views[P]>): void {
  calls.update((state) => ({
    ...state,
    servers: withEntry(state.servers, id, fresh, (s) => ({ ...s, [part]: { ...s[part], [key]: request } })),
  }));
}

/** Runs a request, keeping its state (running, then its result or error) under `part`/`key`. */
export async function track<V>(
  run: () => Promise<V>,
  saveState: (state: RequestState<V>) => void,
  args: JsonObject = {},
): Promise<void> {
  const started = performance.now();
  saveState({ status: "running", result: null, error: null, durationMs: null, startedAt: Date.now() });
  try {
    const result = await run();
    saveState({ status: "done", result, error: null, durationMs: performance.now() - started });
  } catch (error) {
    const failed: RequestState<V> = {
      status: "error",
      result: null,
      error: errorMessage(error),
      durationMs: performance.now() - started,
    };
    // A CallError from Rust: a JSON-RPC error answer keeps its code and data; any failure
    // may come with the doctor's diagnoses.
    const e = asCallError(error);
    if (e?.code != null) failed.rpcError = { code: e.code, data: e.data, urlRequired: e.url_required, args };
    if (e) failed.diagnoses = e.diagnoses;
    saveState(failed);
  }
}

export function callTool(id: string, name: string, args: JsonObject, callId?: string): Promise<void> {
  let becameTask: TaskEntry | null = null;
  let findings: Finding[] = [];
  const run = async () => {
    const called = await ipc.callTool(id, name, args, callId);
    becameTask = called.task;
    findings = called.findings;
    if (becameTask) noteTask(id, becameTask);
    return called.result;
  };
  return track(run, (s) => save(id, "tools", name, s.status === "done" ? { ...s, becameTask, findings } : s), args);
}

export function readResource(id: string, uri: string): Promise<void> {
  let cache: CacheHint | null = null;
  const run = async () => {
    const read = await ipc.readResourceCached(id, uri);
    cache = read.cache;
    return read.result;
  };
  return track(run, (s) => save(id, "reads", uri, s.status === "done" ? { ...s, cache } : s));
}

export function getPrompt(id: string, name: string, args: Record<string, string>): Promise<void> {
  return track(() => ipc.getPrompt(id, name, args), (s) => save(id, "gets", name, s), args);
}

// ---------------------------------------------------------------------------------------------
// Tool calls in progress

let counter = 0;
const keyOf = (serverId: string, tool: string) => `${serverId}\u0000${tool}`;

/** Records a new call and returns its id (unique in this page). */
export function startCall(serverId: string, tool: string, now = Date.now()): string {
  counter += 1;
  const callId = `ui-${now.toString(36)}-${counter}`;
  const call: RunningCall = { serverId, tool, callId, startedAt: now, progress: null, total: null, message: null, cancelled: false };
  calls.update((state) => ({ ...state, running: { ...state.running, [keyOf(serverId, tool)]: call } }));
  return callId;
}

export function markCancelled(serverId: string, tool: string): RunningCall | undefined {
  const key = keyOf(serverId, tool);
  const call = calls.getState().running[key];
  if (!call) return undefined;
  const cancelled = { ...call, cancelled: true };
  calls.update((state) => ({ ...state, running: { ...state.running, [key]: cancelled } }));
  return cancelled;
}

/** A `call_progress` event: taken only by the call with that id on that server. */
export function noteCallProgress(
  serverId: string,
  callId: string,
  progress: number,
  total: number | null,
  message: string | null,
): void {
  calls.updateSoon((state) => {
    const key = Object.keys(state.running).find((k) => state.running[k]?.callId === callId);
    const call = key === undefined ? undefined : state.running[key];
    if (!key || !call || call.serverId !== serverId) return state;
    return { ...state, running: { ...state.running, [key]: { ...call, progress, total, message: message ?? call.message } } };
  });
}

export function runningCall(serverId: string, tool: string): RunningCall | undefined {
  return calls.getState().running[keyOf(serverId, tool)];
}

export function useRunningCall(serverId: string, tool: string): RunningCall | undefined {
  return useCalls((s) => s.running[keyOf(serverId, tool)]);
}
