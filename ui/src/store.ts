// The app's state: a small hand-written store read with useSyncExternalStore.
//
// Small things (status, lists, selections) are immutable: an update makes new objects along
// the path, so a selector returns the same reference until its slice changes. The two big,
// fast-growing things (a server's traffic, HTTP exchanges and console) are mutable logs appended in place,
// each with a `version` number that selectors watch instead (see traffic/log.ts).
//
// Live events change the state at once but tell the views at most once per animation frame,
// so a server flooding frames costs one render per frame, not one per batch.
import { useSyncExternalStore } from "react";
import type { AppEvent } from "./bindings/AppEvent";
import type { ConnectionInfo } from "./bindings/ConnectionInfo";
import type { ConnectionStatus } from "./bindings/ConnectionStatus";
import type { Decision } from "./bindings/Decision";
import type { HostSettings } from "./bindings/HostSettings";
import type { PendingAsk } from "./bindings/PendingAsk";
import type { ServerEntry } from "./bindings/ServerEntry";
import type { ServerIdentity } from "./bindings/ServerIdentity";
import type { JsonValue } from "./bindings/serde_json/JsonValue";
import { ConsoleLog } from "./console/log";
import type { JsonObject, ListKind } from "./ipc";
import { NetworkLog } from "./network/log";
import type { DirectionFilter } from "./traffic/filter";
import { TrafficLog } from "./traffic/log";

export type TabId =
  | "overview"
  | "tools"
  | "resources"
  | "prompts"
  | "saved"
  | "requests"
  | "oauth"
  | "traffic"
  | "network"
  | "console";

/** The server's requests to the client this session: what was decided, what was refused. */
export interface RequestsState {
  decisions: Decision[];
  /** Refusals and other things the engine warned about, newest last. */
  warnings: Array<{ message: string; wallUs: number }>;
  /** URL elicitations the server said are complete (notifications/elicitation/complete). */
  completed: string[];
  /** Roots and reply rule; null until loaded. */
  settings: HostSettings | null;
  settingsError: string | null;
}

export interface ListState {
  status: "idle" | "loading" | "loaded" | "error";
  items: JsonValue[];
  error: string | null;
  /** For a list loaded page by page: the server's opaque cursor of the next page (never saved). */
  nextCursor?: string | null;
}

/** One request the user made (a tool call, a resource read, a prompt get) and how it ended. */
export interface RequestState {
  status: "running" | "done" | "error";
  result: JsonValue | null;
  error: string | null;
  durationMs: number | null;
  /** For a JSON-RPC error answer: its code and data (e.g. -32042 names URLs to visit). */
  rpcError?: { code: number; data: JsonValue | null; args: JsonObject };
}

export interface TrafficView {
  text: string;
  direction: DirectionFilter;
  follow: boolean;
  selectedSeq: number | null;
}

export interface ServerState {
  id: string;
  status: ConnectionStatus;
  identity: ServerIdentity | null;
  /** Bumped when a new connection starts; async results of an older one are dropped. */
  session: number;
  /** A connect/disconnect in flight from this UI. */
  busy: "connecting" | "disconnecting" | null;
  /** What the last connect/disconnect/remove rejected with. */
  actionError: string | null;
  tab: TabId;
  lists: Record<ListKind, ListState>;
  traffic: TrafficLog;
  console: ConsoleLog;
  /** The HTTP requests under the JSON-RPC (HTTP transports only). */
  network: NetworkLog;
  trafficView: TrafficView;
  networkView: { selectedSeq: number | null };
  tools: {
    selected: string | null;
    forms: Record<string, JsonValue>;
    calls: Record<string, RequestState>;
  };
  resources: {
    selected: string | null;
    uriInput: string;
    reads: Record<string, RequestState>;
    /** URIs subscribed to this session (resources/subscribe). */
    subscribed?: string[];
    /** The last notifications/resources/updated per URI: when, how many, and whether it came after the last read. */
    updated?: Record<string, { wallUs: number; count: number; stale: boolean }>;
  };
  prompts: {
    selected: string | null;
    args: Record<string, Record<string, string>>;
    gets: Record<string, RequestState>;
  };
  requests: RequestsState;
}

export interface AppState {
  catalog: ServerEntry[];
  catalogStatus: "loading" | "loaded" | "error";
  catalogError: string | null;
  selectedId: string | null;
  servers: Record<string, ServerState>;
  /** Server requests waiting for the user, oldest first (across servers). */
  asks: PendingAsk[];
  /** Errors not tied to one server (the event subscription, the IPC itself). */
  appErrors: string[];
}

export const LIST_KINDS: readonly ListKind[] = ["tools", "resources", "resource_templates", "prompts"];

const idleList = (): ListState => ({ status: "idle", items: [], error: null });

function idleLists(): Record<ListKind, ListState> {
  return {
    tools: idleList(),
    resources: idleList(),
    resource_templates: idleList(),
    prompts: idleList(),
  };
}

export function newServerState(id: string): ServerState {
  return {
    id,
    status: { state: "disconnected" },
    identity: null,
    session: 0,
    busy: null,
    actionError: null,
    tab: "overview",
    lists: idleLists(),
    traffic: new TrafficLog(),
    console: new ConsoleLog(),
    network: new NetworkLog(),
    trafficView: { text: "", direction: "all", follow: true, selectedSeq: null },
    networkView: { selectedSeq: null },
    tools: { selected: null, forms: {}, calls: {} },
    resources: { selected: null, uriInput: "", reads: {} },
    prompts: { selected: null, args: {}, gets: {} },
    requests: { decisions: [], warnings: [], completed: [], settings: null, settingsError: null },
  };
}

export function initialState(): AppState {
  return {
    catalog: [],
    catalogStatus: "loading",
    catalogError: null,
    selectedId: null,
    servers: {},
    asks: [],
    appErrors: [],
  };
}

/** What the caller should do after a batch of events (the store itself does no IPC). */
export interface EventEffects {
  /** Lists to fetch again (a list-changed notification for a list already loaded). */
  refetch: Array<{ serverId: string; kind: ListKind }>;
  /** Servers that became ready without a known identity: ask `connections` again. */
  needIdentity: string[];
}

/** A new connection starts: a fresh traffic and HTTP record (seqs restart), lists to load again. */
function startSession(server: ServerState, wallUs: number): ServerState {
  server.console.newSession(wallUs);
  return {
    ...server,
    session: server.session + 1,
    identity: null,
    lists: idleLists(),
    traffic: new TrafficLog(),
    network: new NetworkLog(),
    trafficView: { ...server.trafficView, selectedSeq: null },
    networkView: { selectedSeq: null },
    requests: { ...server.requests, decisions: [], warnings: [], completed: [] },
    resources: { ...server.resources, subscribed: [], updated: {} },
  };
}

function applyStatus(server: ServerState, status: ConnectionStatus, wallUs: number): ServerState {
  const wasConnecting = server.status.state === "connecting";
  const next = status.state === "connecting" && !wasConnecting ? startSession(server, wallUs) : server;
  return { ...next, status };
}

type Schedule = (flush: () => void) => void;

const frameSchedule: Schedule = (flush) => {
  if (typeof requestAnimationFrame === "function") requestAnimationFrame(flush);
  else setTimeout(flush, 16);
};

export class Store {
  private state: AppState;
  private readonly listeners = new Set<() => void>();
  private flushPending = false;
  private readonly schedule: Schedule;

  constructor(state: AppState = initialState(), schedule: Schedule = frameSchedule) {
    this.state = state;
    this.schedule = schedule;
  }

  getState = (): AppState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Tells every view now. */
  private emit(): void {
    this.flushPending = false;
    for (const listener of [...this.listeners]) listener();
  }

  /** Tells every view on the next frame (many calls, one render). */
  private emitSoon(): void {
    if (this.flushPending) return;
    this.flushPending = true;
    this.schedule(() => {
      if (this.flushPending) this.emit();
    });
  }

  /** Tells the views on the next frame that a log changed in place. */
  notify(): void {
    this.emitSoon();
  }

  /** Replaces the state and tells the views at once (for user actions). */
  update(change: (state: AppState) => AppState): void {
    const next = change(this.state);
    if (next === this.state) return;
    this.state = next;
    this.emit();
  }

  /** Updates one server's state, creating it if needed. */
  updateServer(id: string, change: (server: ServerState) => ServerState): void {
    this.update((state) => withServer(state, id, change));
  }

  /**
   * Applies a batch of events in order. Traffic, HTTP and console logs are appended in place;
   * status changes replace that server's state. Views hear about it on the next frame.
   */
  applyEvents(events: readonly AppEvent[], nowUs: number = Date.now() * 1000): EventEffects {
    const effects: EventEffects = { refetch: [], needIdentity: [] };
    let state = this.state;
    const serverOf = (id: string): ServerState => {
      const existing = state.servers[id];
      if (existing) return existing;
      const created = newServerState(id);
      state = { ...state, servers: { ...state.servers, [id]: created } };
      return created;
    };
    const replace = (server: ServerState) => {
      state = { ...state, servers: { ...state.servers, [server.id]: server } };
    };
    for (const event of events) {
      switch (event.type) {
        case "frames":
          serverOf(event.server_id).traffic.append(event.rows);
          break;
        case "frame_flagged":
          serverOf(event.server_id).traffic.flag(event.seq, event.flag);
          break;
        case "stderr":
          serverOf(event.server_id).console.addStderr(event.lines);
          break;
        case "http":
          serverOf(event.server_id).network.append([event.exchange]);
          break;
        case "status": {
          const server = applyStatus(serverOf(event.server_id), event.status, nowUs);
          replace(server);
          const needs = effects.needIdentity;
          if (event.status.state === "ready" && server.identity === null) {
            if (!needs.includes(server.id)) needs.push(server.id);
          } else if (event.status.state !== "ready") {
            effects.needIdentity = needs.filter((id) => id !== server.id);
          }
          break;
        }
        case "ask":
          if (!state.asks.some((a) => a.ask_id === event.ask.ask_id)) {
            state = { ...state, asks: [...state.asks, event.ask] };
          }
          break;
        case "ask_closed":
          state = { ...state, asks: state.asks.filter((a) => a.ask_id !== event.ask_id) };
          break;
        case "decision": {
          const server = serverOf(event.server_id);
          const requests = { ...server.requests, decisions: [...server.requests.decisions, event.decision] };
          replace({ ...server, requests });
          break;
        }
        case "warning": {
          const server = serverOf(event.server_id);
          const warning = { message: event.message, wallUs: nowUs };
          replace({ ...server, requests: { ...server.requests, warnings: [...server.requests.warnings, warning] } });
          break;
        }
        case "notification": {
          const n = event.notification;
          if (n.kind === "elicitation_complete") {
            const current = serverOf(event.server_id);
            const completed = [...current.requests.completed, n.elicitation_id];
            replace({ ...current, requests: { ...current.requests, completed } });
          }
          if (n.kind === "resource_updated") {
            const current = serverOf(event.server_id);
            const previous = current.resources.updated?.[n.uri];
            const entry = { wallUs: nowUs, count: (previous?.count ?? 0) + 1, stale: true };
            const updated = { ...current.resources.updated, [n.uri]: entry };
            replace({ ...current, resources: { ...current.resources, updated } });
          }
          const server = serverOf(event.server_id);
          server.console.addNotification(n, nowUs);
          const kinds: ListKind[] =
            n.kind === "tools_list_changed"
              ? ["tools"]
              : n.kind === "prompts_list_changed"
                ? ["prompts"]
                : n.kind === "resources_list_changed"
                  ? ["resources", "resource_templates"]
                  : [];
          for (const kind of kinds) {
            const already = effects.refetch.some((r) => r.serverId === server.id && r.kind === kind);
            if (server.lists[kind].status !== "idle" && !already) {
              effects.refetch.push({ serverId: server.id, kind });
            }
          }
          break;
        }
      }
    }
    this.state = state;
    this.emitSoon();
    return effects;
  }

  /** Takes in what `connections` said (status and identity of every known connection). */
  setConnections(infos: readonly ConnectionInfo[]): void {
    this.update((state) => {
      let next = state;
      for (const info of infos) {
        next = withServer(next, info.server_id, (server) => {
          const moved = applyStatus(server, info.status, Date.now() * 1000);
          const identity = info.identity ?? (info.status.state === "ready" ? moved.identity : null);
          return { ...moved, identity };
        });
      }
      return next;
    });
  }

  /**
   * The user asked to connect: the server is `connecting` from now on (a fresh record, and no
   * stale failure shown), whether or not the app's own `connecting` event has arrived yet.
   */
  beginConnect(id: string): void {
    this.updateServer(id, (server) => ({
      ...applyStatus(server, { state: "connecting" }, Date.now() * 1000),
      busy: "connecting",
      actionError: null,
    }));
  }

  setIdentity(id: string, session: number, identity: ServerIdentity): void {
    this.updateServer(id, (server) => {
      if (server.session !== session) return server;
      const status: ConnectionStatus =
        server.status.state === "connecting" || server.status.state === "disconnected"
          ? { state: "ready", protocol_version: identity.protocol_version }
          : server.status;
      return { ...server, identity, status };
    });
  }

  /** The catalog as the Rust side returned it; keeps a valid selection. */
  setCatalog(catalog: ServerEntry[]): void {
    this.update((state) => {
      let next: AppState = { ...state, catalog, catalogStatus: "loaded", catalogError: null };
      for (const entry of catalog) {
        if (!next.servers[entry.id]) next = withServer(next, entry.id, (s) => s);
      }
      const stillThere = catalog.some((e) => e.id === next.selectedId);
      if (!stillThere) next = { ...next, selectedId: pickSelection(next) };
      return next;
    });
  }

  setCatalogError(message: string): void {
    this.update((state) => ({
      ...state,
      catalogStatus: state.catalog.length > 0 ? "loaded" : "error",
      catalogError: message,
    }));
  }

  select(id: string | null): void {
    this.update((state) => (state.selectedId === id ? state : { ...state, selectedId: id }));
  }

  addAppError(message: string): void {
    this.update((state) =>
      state.appErrors.includes(message) ? state : { ...state, appErrors: [...state.appErrors, message] },
    );
  }

  dismissAppError(message: string): void {
    this.update((state) => ({ ...state, appErrors: state.appErrors.filter((m) => m !== message) }));
  }

  /** Asks fetched at startup (made before the UI subscribed). */
  setAsks(asks: PendingAsk[]): void {
    this.update((state) => {
      const known = new Set(state.asks.map((a) => a.ask_id));
      const added = asks.filter((a) => !known.has(a.ask_id));
      return added.length === 0 ? state : { ...state, asks: [...state.asks, ...added] };
    });
  }

  /** The user answered: the panel goes at once (the app confirms with ask_closed). */
  removeAsk(askId: number): void {
    this.update((state) =>
      state.asks.some((a) => a.ask_id === askId)
        ? { ...state, asks: state.asks.filter((a) => a.ask_id !== askId) }
        : state,
    );
  }

  setHostSettings(id: string, settings: HostSettings | null, error: string | null): void {
    this.updateServer(id, (server) => ({
      ...server,
      requests: { ...server.requests, settings: settings ?? server.requests.settings, settingsError: error },
    }));
  }

  setList(id: string, kind: ListKind, list: ListState): void {
    this.updateServer(id, (server) => ({ ...server, lists: { ...server.lists, [kind]: list } }));
  }
}

function withServer(
  state: AppState,
  id: string,
  change: (server: ServerState) => ServerState,
): AppState {
  const current = state.servers[id] ?? newServerState(id);
  const next = change(current);
  if (next === current && state.servers[id]) return state;
  return { ...state, servers: { ...state.servers, [id]: next } };
}

/** The entry to show first: a connected one (the auto-connected demo), else the first. */
function pickSelection(state: AppState): string | null {
  const live = state.catalog.find((e) => {
    const s = state.servers[e.id]?.status.state;
    return s === "ready" || s === "connecting";
  });
  return live?.id ?? state.catalog[0]?.id ?? null;
}

/** The app's one store. */
export const store = new Store();

/** Reads a slice of the store; re-renders only when the selected value changes (by ===). */
export function useStore<T>(selector: (state: AppState) => T): T {
  return useSyncExternalStore(store.subscribe, () => selector(store.getState()));
}

/** One server's state (undefined until the catalog or an event mentions it). */
export function useServer(id: string): ServerState | undefined {
  return useStore((state) => state.servers[id]);
}
