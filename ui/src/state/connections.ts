// Connections and the session: the catalog, which server is selected, each server's status,
// identity and session number, and where the user is in its tabs. Errors not tied to one
// server (the event subscription, the IPC itself) live here too.
//
// A new connection starts a new session: the other managers register with `onSessionStart`
// to start their per-server record afresh (traffic seqs restart, lists load again).
import type { ListenState } from "../bindings/ListenState";
import type { ConnectionInfo } from "../bindings/ConnectionInfo";
import type { ConnectionStatus } from "../bindings/ConnectionStatus";
import type { ServerEntry } from "../bindings/ServerEntry";
import type { ServerIdentity } from "../bindings/ServerIdentity";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { Notifier, useNotifier, withEntry } from "./notifier";
import { isRecordingId } from "./recordings";

export type TabId =
  | "overview"
  | "tools"
  | "resources"
  | "prompts"
  | "skills"
  | "apps"
  | "saved"
  | "requests"
  | "playground"
  | "tasks"
  | "check"
  | "load"
  | "evals"
  | "oauth"
  | "traffic"
  | "timeline"
  | "network"
  | "console";

export interface ServerState {
  id: string;
  status: ConnectionStatus;
  identity: ServerIdentity | null;
  /** Bumped when a new connection starts; async results of an older one are dropped. */
  session: number;
  /** A connect/disconnect in flight from this UI. */
  busy: "connecting" | "disconnecting" | null;
  /** When the last connection attempt began (ms since the epoch), for "Connecting… 3 s". */
  connectingSince?: number;
  /** What the last connect/disconnect/remove rejected with. */
  actionError: string | null;
  tab: TabId;
  tools: {
    selected: string | null;
    forms: Record<string, JsonValue>;
  };
  resources: {
    selected: string | null;
    uriInput: string;
    /** URIs subscribed to this session (resources/subscribe). */
    subscribed?: string[];
    /** The last notifications/resources/updated per URI: when, how many, and whether it came after the last read. */
    updated?: Record<string, { wallUs: number; count: number; stale: boolean }>;
  };
  prompts: {
    selected: string | null;
    args: Record<string, Record<string, string>>;
  };
  /** Modern era: the listen stream's state (AppEvent "listen"), worded where it is shown. */
  listen?: ListenState;
  /** This connection's `server/discover` probe has waited a while (AppEvent "probe_waiting"). */
  probeWaiting?: boolean;
}

export interface ConnectionsState {
  catalog: ServerEntry[];
  catalogStatus: "loading" | "loaded" | "error";
  catalogError: string | null;
  selectedId: string | null;
  /**
   * The welcome view stays up with no server selected (a first launch, or the user asked for
   * it): the catalog loading or changing does not pick a server then. Selecting one ends it.
   */
  welcome: boolean;
  servers: Record<string, ServerState>;
  /** Errors not tied to one server (the event subscription, the IPC itself). */
  appErrors: string[];
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
    tools: { selected: null, forms: {} },
    resources: { selected: null, uriInput: "" },
    prompts: { selected: null, args: {} },
  };
}

const initialState = (): ConnectionsState => ({
  catalog: [],
  catalogStatus: "loading",
  catalogError: null,
  selectedId: null,
  welcome: false,
  servers: {},
  appErrors: [],
});

export const connections = new Notifier<ConnectionsState>(initialState());

export const useConnections = <T>(selector: (state: ConnectionsState) => T): T => useNotifier(connections, selector);

/** One server's state (undefined until the catalog or an event mentions it). */
export const useServer = (id: string): ServerState | undefined => useConnections((s) => s.servers[id]);

export const serverState = (id: string): ServerState | undefined => connections.getState().servers[id];

// ---------------------------------------------------------------------------------------------
// Sessions

const sessionListeners = new Set<(serverId: string, wallUs: number) => void>();

/** Registers what to start afresh when a server's new connection starts. */
export function onSessionStart(listener: (serverId: string, wallUs: number) => void): void {
  sessionListeners.add(listener);
}

function startSession(server: ServerState, wallUs: number): ServerState {
  for (const listener of sessionListeners) listener(server.id, wallUs);
  return { ...server, session: server.session + 1, identity: null, listen: undefined, probeWaiting: false, resources: { ...server.resources, subscribed: [], updated: {} } };
}

function applyStatus(server: ServerState, status: ConnectionStatus, wallUs: number): ServerState {
  const wasConnecting = server.status.state === "connecting";
  const next =
    status.state === "connecting" && !wasConnecting
      ? { ...startSession(server, wallUs), connectingSince: Math.floor(wallUs / 1000) }
      : server;
  return { ...next, status };
}

export function updateServer(id: string, change: (server: ServerState) => ServerState): void {
  connections.update((state) => withServer(state, id, change));
}

/** The same for a live event: the views hear of it on the next frame. */
export function updateServerSoon(id: string, change: (server: ServerState) => ServerState): void {
  connections.updateSoon((state) => withServer(state, id, change));
}

function withServer(state: ConnectionsState, id: string, change: (server: ServerState) => ServerState): ConnectionsState {
  const servers = withEntry(state.servers, id, () => newServerState(id), change);
  return servers === state.servers && state.servers[id] ? state : { ...state, servers };
}

/** The connection's probe has waited a while: Overview says why connecting takes long. */
export function noteProbeWaiting(id: string): void {
  updateServerSoon(id, (server) => (server.status.state === "connecting" ? { ...server, probeWaiting: true } : server));
}

/** Makes a server's state if there is none yet (an event named it). */
export function ensureServer(id: string): void {
  if (!connections.getState().servers[id]) updateServerSoon(id, (s) => s);
}

/**
 * A `status` event. Returns the server's state after it (a `connecting` after anything else
 * starts a new session).
 */
export function applyStatusEvent(id: string, status: ConnectionStatus, wallUs: number): ServerState {
  updateServerSoon(id, (server) => applyStatus(server, status, wallUs));
  return serverState(id)!;
}

/** Takes in what `connections` said (status and identity of every known connection). */
export function setConnections(infos: readonly ConnectionInfo[]): void {
  connections.update((state) => {
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
export function beginConnect(id: string): void {
  updateServer(id, (server) => ({
    ...applyStatus(server, { state: "connecting" }, Date.now() * 1000),
    busy: "connecting",
    actionError: null,
  }));
}

export function setIdentity(id: string, session: number, identity: ServerIdentity): void {
  updateServer(id, (server) => {
    if (server.session !== session) return server;
    const status: ConnectionStatus =
      server.status.state === "connecting" || server.status.state === "disconnected"
        ? { state: "ready", protocol_version: identity.protocol_version }
        : server.status;
    return { ...server, identity, status };
  });
}

export function setActionError(id: string, message: string | null): void {
  updateServer(id, (s) => ({ ...s, actionError: message }));
}

// ---------------------------------------------------------------------------------------------
// Catalog and selection

/** The catalog as the Rust side returned it; keeps a valid selection. */
export function setCatalog(catalog: ServerEntry[]): void {
  connections.update((state) => {
    let next: ConnectionsState = { ...state, catalog, catalogStatus: "loaded", catalogError: null };
    for (const entry of catalog) {
      if (!next.servers[entry.id]) next = withServer(next, entry.id, (s) => s);
    }
    // A reopened recording is not in the catalog, and stays selected (state/recordings.ts).
    const stillThere = catalog.some((e) => e.id === next.selectedId) || isRecordingId(next.selectedId);
    if (!stillThere) next = { ...next, selectedId: pickSelection(next) };
    return next;
  });
}

export function setCatalogError(message: string): void {
  connections.update((state) => ({
    ...state,
    catalogStatus: state.catalog.length > 0 ? "loaded" : "error",
    catalogError: message,
  }));
}

export function select(id: string | null): void {
  connections.update((state) =>
    state.selectedId === id && state.welcome === (id === null) ? state : { ...state, selectedId: id, welcome: id === null },
  );
}

/** The entry to show first: none while the welcome view is up; a connected one (the auto-connected demo), else the first. */
function pickSelection(state: ConnectionsState): string | null {
  if (state.welcome) return null;
  const live = state.catalog.find((e) => {
    const s = state.servers[e.id]?.status.state;
    return s === "ready" || s === "connecting";
  });
  return live?.id ?? state.catalog[0]?.id ?? null;
}

export function addAppError(message: string): void {
  connections.update((state) =>
    state.appErrors.includes(message) ? state : { ...state, appErrors: [...state.appErrors, message] },
  );
}

export function dismissAppError(message: string): void {
  connections.update((state) => ({ ...state, appErrors: state.appErrors.filter((m) => m !== message) }));
}

/** For tests: forget everything. */
export function resetConnections(): void {
  connections.update(() => initialState());
}
