// What the UI does across concerns: startup, the catalog, connecting, loading lists, and the
// view state of each server. Every action calls the Rust side through the IPC layer and puts the
// outcome, success or error message, into the state managers (state/). Nothing here swallows an
// error. This is the top: nothing below it (state/, ipc/) imports it.
import type { Answer } from "./bindings/Answer";
import type { AppEvent } from "./bindings/AppEvent";
import type { HostSettings } from "./bindings/HostSettings";
import type { UrlDecision } from "./bindings/UrlDecision";
import type { ServerEntry } from "./bindings/ServerEntry";
import type { ServerTarget } from "./bindings/ServerTarget";
import type { JsonValue } from "./bindings/serde_json/JsonValue";
import i18n from "./i18n";
import type { RecordingInfo } from "./bindings/RecordingInfo";
import { errorMessage, hasTauri, ipc, recordingsIpc, settingsIpc, type ListKind } from "./ipc";
import { loadFirstPage } from "./resources/paging";
import { setAppSettings, setSystemLanguages } from "./settings/appSettings";
import { loadRemembered } from "./tools/remembered";
import { addAsks, removeAsk, setHostSettings } from "./state/asks";
import {
  addAppError,
  beginConnect,
  connections,
  select,
  serverState,
  setActionError,
  setCatalog,
  setCatalogError,
  setConnections,
  setIdentity,
  updateServer,
  type TabId,
} from "./state/connections";
import { dispatchEvents } from "./state/dispatcher";
import { putRecording, recordings, setRecordings } from "./state/recordings";
import {
  answerFilter,
  catalogToast,
  listErrorToast,
  showToast,
  toastsForEvents,
  type ToastLink,
} from "./feedback/toasts";
import type { HistoryEntry } from "./bindings/HistoryEntry";
import { offers, serverLists, setList } from "./state/lists";
import { logsChanged, serverConsole } from "./state/logs";
import { selectExchange, serverTraffic, setSummary, setTrafficView, trafficChanged } from "./state/traffic";
import type { TrafficFilter } from "./bindings/TrafficFilter";
import { ALL_FRAMES } from "./traffic/filter";

let started = false;

/** Subscribes to events, loads the catalog and picks up connections made before the UI. */
export async function start(): Promise<void> {
  if (started) return;
  started = true;
  if (!hasTauri()) {
    addAppError(i18n.t("state:noBackend"));
    setCatalogError(i18n.t("state:noCatalog"));
    return;
  }
  try {
    await ipc.subscribeEvents(handleEvents);
  } catch (error) {
    addAppError(i18n.t("state:subscribeFailed", { error: errorMessage(error) }));
  }
  await Promise.all([loadCatalog(), refreshConnections(true), loadAsks(), loadAppSettings(), loadToolArgs()]);
  // After the catalog: a recording the app was started on (`periscope open FILE`) is shown.
  await loadRecordings();
  watchCatalog();
}

/** The last arguments of each tool, for the forms; none if they cannot be read. */
async function loadToolArgs(): Promise<void> {
  try {
    loadRemembered(await settingsIpc.rememberedArgsAll(), settingsIpc.rememberedArgsPut);
  } catch (error) {
    addAppError(i18n.t("state:rememberedFailed", { error: errorMessage(error) }));
  }
}

/**
 * The app's settings (theme, language, default era, timeout); the defaults stay if they cannot
 * be read. main.tsx awaits this before the first paint, so a Chinese desktop never flashes English.
 */
export async function loadAppSettings(): Promise<void> {
  if (!hasTauri()) return;
  try {
    setSystemLanguages(await settingsIpc.systemLanguages());
    setAppSettings(await settingsIpc.appSettingsGet());
  } catch (error) {
    addAppError(i18n.t("state:settingsFailed", { error: errorMessage(error) }));
  }
}

const serverName = (id: string): string => connections.getState().catalog.find((e) => e.id === id)?.name ?? id;

/** A toast when servers join the loaded catalog (an import, the server form, a duplicate). */
function watchCatalog(): void {
  let known = connections.getState().catalog;
  connections.subscribe(() => {
    const { catalog, catalogStatus } = connections.getState();
    if (catalog === known || catalogStatus !== "loaded") return;
    const toast = catalogToast(known, catalog);
    known = catalog;
    if (toast) showToast(toast);
  });
}

/** A toast's link: the frame that answered, the last frame, or the stderr, of its server. */
function followToastLink(link: ToastLink): void {
  const id = link.serverId;
  select(id);
  if (link.to === "console") {
    setTab(id, "console");
    return;
  }
  void (link.to === "answer" ? answerFrame(id, link.method, link.sinceUs) : lastFrame(id)).then(
    (seq) => {
      if (seq === null) setTab(id, "traffic");
      else showFrame(id, seq);
    },
    () => setTab(id, "traffic"),
  );
}

/** The last row `filter` keeps in the server's record, asked of the engine; null when none. */
async function lastMatching(serverId: string, filter: TrafficFilter): Promise<number | null> {
  const count = await ipc.trafficCount(serverId, filter);
  if (count === 0) return null;
  const [row] = await ipc.trafficWindow(serverId, filter, count - 1, 1, count);
  return row?.seq ?? null;
}

/** The last frame of the record. */
const lastFrame = (serverId: string): Promise<number | null> => lastMatching(serverId, ALL_FRAMES);

/** The newest response to `method` recorded since `sinceUs` (what a toast about a call links to). */
const answerFrame = (serverId: string, method: string, sinceUs: number): Promise<number | null> =>
  lastMatching(serverId, answerFilter(method, sinceUs));

/** The tab where a call of each kind shows its result. */
const RESULT_TAB: Record<HistoryEntry["kind"], TabId> = { tool: "tools", resource: "resources", prompt: "prompts" };
/** The tab that shows each list. */
const LIST_TAB: Record<ListKind, TabId> = {
  tools: "tools",
  resources: "resources",
  resource_templates: "resources",
  prompts: "prompts",
};

/** Whether the user looks at this server's tab (or one of them) in a window they can see. */
function looksAt(serverId: string, tabs: readonly TabId[]): boolean {
  if (typeof document !== "undefined" && document.visibilityState === "hidden") return false;
  const { selectedId, servers } = connections.getState();
  const tab = servers[serverId]?.tab;
  return selectedId === serverId && tab !== undefined && tabs.includes(tab);
}

/** Server requests that were waiting before the UI subscribed (e.g. after a reload). */
export async function loadAsks(): Promise<void> {
  try {
    addAsks(await ipc.pendingAsks());
  } catch (error) {
    addAppError(i18n.t("state:asksFailed", { error: errorMessage(error) }));
  }
}

/**
 * Sends the user's answer to a server request. Returns an error message when it could not be
 * delivered (the request is gone: answered elsewhere, or its server went away).
 */
export async function answerAsk(askId: number, answer: Answer): Promise<string | null> {
  try {
    await ipc.answerAsk(askId, answer);
    removeAsk(askId);
    return null;
  } catch (error) {
    removeAsk(askId);
    return errorMessage(error);
  }
}

export async function loadHostSettings(id: string): Promise<void> {
  try {
    setHostSettings(id, await ipc.hostSettings(id), null);
  } catch (error) {
    setHostSettings(id, null, i18n.t("state:hostSettingsFailed", { error: errorMessage(error) }));
  }
}

/** Saves roots and reply rule; a connected server hears that its roots changed. */
export async function saveHostSettings(id: string, settings: HostSettings): Promise<void> {
  try {
    await ipc.saveHostSettings(id, settings);
    setHostSettings(id, settings, null);
  } catch (error) {
    setHostSettings(id, null, errorMessage(error));
  }
}

/** Every batch of live events: routed by the dispatcher, then what it asks to fetch. */
export function handleEvents(events: AppEvent[]): void {
  // The states before the batch tell a dropped connection from one the user closed.
  const before = connections.getState().servers;
  const effects = dispatchEvents(events);
  // A call's result is seen on its tab, or on Saved (re-runs): a long call that ends out of sight gets a toast.
  const watching = (id: string, kind: HistoryEntry["kind"]) => looksAt(id, [RESULT_TAB[kind], "saved"]);
  for (const toast of toastsForEvents(events, (id) => before[id], serverName, watching)) showToast(toast, followToastLink);
  for (const { serverId, kind } of effects.refetch) void refetchList(serverId, kind);
  if (effects.needIdentity.length > 0) void refreshConnections(false);
  if (effects.reloadCatalog) void reloadCatalog();
}

/**
 * A list again, after the server said it changed. A failure shows in the list; for a list the
 * user is not looking at, a toast says so too, linked to the error's frame.
 */
async function refetchList(id: string, kind: ListKind): Promise<void> {
  const sinceUs = Date.now() * 1000;
  await loadList(id, kind);
  const list = serverLists(id)[kind];
  if (list.status !== "error" || looksAt(id, [LIST_TAB[kind]])) return;
  showToast(listErrorToast(id, serverName(id), kind, list.error ?? "", sinceUs), followToastLink);
}

/** Servers opened from a command line that the UI has shown already. */
const shownLaunches = new Set<string>();

/** Selects the newest server opened from a command line (this launch's or a second one's), once. */
function selectLaunched(ids: readonly string[]): void {
  const fresh = ids.filter((id) => !shownLaunches.has(id));
  for (const id of fresh) shownLaunches.add(id);
  const newest = fresh[fresh.length - 1];
  if (newest !== undefined) select(newest);
}

/** The catalog again, after it changed outside the UI (a server or a recording opened from the command line). */
async function reloadCatalog(): Promise<void> {
  try {
    const launched = await ipc.catalogTemporary();
    setCatalog(await ipc.catalogList());
    selectLaunched(launched.map((entry) => entry.id));
  } catch (error) {
    setCatalogError(i18n.t("state:catalogFailed", { error: errorMessage(error) }));
  }
  await loadRecordings();
}

/** The recordings the app has open; one the UI did not know yet (from the command line) is shown. */
export async function loadRecordings(): Promise<void> {
  try {
    const list = await recordingsIpc.recordingsList();
    const known = new Set(recordings.getState().list.map((r) => r.id));
    setRecordings(list);
    for (const info of list) if (!known.has(info.id)) await showRecording(info);
  } catch (error) {
    addAppError(i18n.t("state:recordingsFailed", { error: errorMessage(error) }));
  }
}

/**
 * A recording opened: listed, selected, and its record read like a server's (its id names it
 * to the record commands), so the Traffic, Network and Console tabs work on it.
 */
export async function showRecording(info: RecordingInfo): Promise<void> {
  putRecording(info);
  updateServer(info.id, (server) => server);
  select(info.id);
  await catchUp(info.id);
}

export async function loadCatalog(): Promise<void> {
  try {
    // A first launch opens on the welcome view (the demo connects behind it), unless the app
    // was started on a server from the command line: that one is shown, whether it connects
    // or fails (its failure is what the user needs to see).
    const launched = await ipc.catalogTemporary();
    if ((await ipc.firstLaunch()) && launched.length === 0) select(null);
    setCatalog(await ipc.catalogList());
    selectLaunched(launched.map((entry) => entry.id));
  } catch (error) {
    setCatalogError(i18n.t("state:catalogFailed", { error: errorMessage(error) }));
  }
  try {
    // Entries the app could not read (kept in the file and backed up), said once at startup.
    for (const problem of await ipc.catalogProblems()) addAppError(problem);
  } catch (error) {
    addAppError(i18n.t("state:catalogCheckFailed", { error: errorMessage(error) }));
  }
}

/** Asks for every connection's status and identity; at startup also fetches their history. */
export async function refreshConnections(catchUpHistory: boolean): Promise<void> {
  try {
    const infos = await ipc.connections();
    setConnections(infos);
    if (catchUpHistory) {
      // Select the auto-connected server when nothing is selected yet.
      const live = infos.find((i) => i.status.state === "ready" || i.status.state === "connecting");
      if (live && connections.getState().selectedId === null) select(live.server_id);
      await Promise.all(infos.map((info) => catchUp(info.server_id)));
    }
  } catch (error) {
    addAppError(i18n.t("state:connectionsFailed", { error: errorMessage(error) }));
  }
}

/** Fetches what was recorded before the UI subscribed: how far the traffic goes (the list asks for its rows), the stderr and the HTTP exchanges. */
export async function catchUp(serverId: string): Promise<void> {
  const server = serverState(serverId);
  if (!server) return;
  const { session } = server;
  const { network } = serverTraffic(serverId);
  const console = serverConsole(serverId);
  try {
    const summary = await ipc.trafficSummary(serverId);
    if (serverState(serverId)?.session !== session) return;
    setSummary(serverId, summary);
    const lines = await ipc.stderrLines(serverId);
    if (serverState(serverId)?.session !== session) return;
    if (console.mergeStderr(lines) > 0) logsChanged();
    const exchanges = await ipc.httpExchanges(serverId);
    if (serverState(serverId)?.session !== session) return;
    if (network.merge(exchanges) > 0) trafficChanged();
  } catch (error) {
    setActionError(serverId, i18n.t("state:catchUpFailed", { error: errorMessage(error) }));
  }
}

// ---------------------------------------------------------------------------------------------
// Catalog

/** Adds or replaces an entry; resolves to an error message, or null when saved. */
export async function saveEntry(entry: ServerEntry): Promise<string | null> {
  try {
    setCatalog(await ipc.catalogSave(entry));
    select(entry.id);
    return null;
  } catch (error) {
    return i18n.t("state:saveFailed", { name: entry.name, error: errorMessage(error) });
  }
}

export function duplicateName(name: string, taken: readonly string[]): string {
  const base = name.replace(/ \(copy(?: \d+)?\)$/, "");
  for (let n = 1; ; n += 1) {
    const candidate = n === 1 ? `${base} (copy)` : `${base} (copy ${n})`;
    if (!taken.includes(candidate)) return candidate;
  }
}

const copyPairs = (pairs: ReadonlyArray<[string, string]>) => pairs.map(([k, v]) => [k, v] as [string, string]);

function copyTarget(target: ServerTarget): ServerTarget {
  if (target.transport === "http") return { ...target, headers: copyPairs(target.headers) };
  return { ...target, args: [...target.args], env: copyPairs(target.env) };
}

export async function duplicateEntry(entry: ServerEntry): Promise<void> {
  const names = connections.getState().catalog.map((e) => e.name);
  const copy: ServerEntry = {
    id: crypto.randomUUID(),
    name: duplicateName(entry.name, names),
    target: copyTarget(entry.target),
    era: entry.era,
  };
  const error = await saveEntry(copy);
  if (error) setActionError(entry.id, error);
}

export async function removeEntry(id: string): Promise<void> {
  const server = serverState(id);
  try {
    if (server && (server.status.state === "ready" || server.status.state === "connecting")) {
      await ipc.disconnect(id);
    }
    setCatalog(await ipc.catalogRemove(id));
  } catch (error) {
    setActionError(id, i18n.t("state:removeFailed", { error: errorMessage(error) }));
  }
}

// ---------------------------------------------------------------------------------------------
// Connections

export async function connect(id: string): Promise<void> {
  beginConnect(id);
  try {
    const identity = await ipc.connect(id);
    const session = serverState(id)?.session ?? 0;
    setIdentity(id, session, identity);
    updateServer(id, (s) => ({ ...s, busy: null }));
  } catch (error) {
    const message = errorMessage(error);
    updateServer(id, (s) => {
      // A connection that is up was not what failed (e.g. it was already connected): say so.
      if (s.status.state === "ready") return { ...s, busy: null, actionError: i18n.t("state:connectFailed", { error: message }) };
      // Otherwise this attempt failed. The `failed` status event carries the stderr tail; until
      // it comes (or if it never does), the rejection's message is the failure.
      const status = s.status.state === "failed" ? s.status : { state: "failed" as const, error: message, stderr_tail: [] };
      return { ...s, busy: null, status };
    });
  }
}

/** Probes the server's era again (`server/discover`), instead of the era remembered for it. */
export async function reprobeEra(id: string): Promise<void> {
  try {
    await ipc.forgetEra(id);
  } catch (error) {
    setActionError(id, i18n.t("state:connectFailed", { error: errorMessage(error) }));
    return;
  }
  await reconnect(id);
}

export async function disconnect(id: string): Promise<void> {
  updateServer(id, (s) => ({ ...s, busy: "disconnecting", actionError: null }));
  try {
    await ipc.disconnect(id);
    updateServer(id, (s) => ({ ...s, busy: null }));
  } catch (error) {
    updateServer(id, (s) => ({
      ...s,
      busy: null,
      actionError: i18n.t("state:disconnectFailed", { error: errorMessage(error) }),
    }));
  }
}

export async function reconnect(id: string): Promise<void> {
  const state = serverState(id)?.status.state;
  if (state === "ready" || state === "connecting") {
    await disconnect(id);
    if (serverState(id)?.actionError) return;
  }
  await connect(id);
}

// ---------------------------------------------------------------------------------------------
// Lists and requests

/** Loads a list the first time its tab is shown while the server is ready. */
export function ensureList(id: string, kind: ListKind): void {
  const server = serverState(id);
  if (!server || server.status.state !== "ready") return;
  if (serverLists(id)[kind].status !== "idle" || !offers(server, kind)) return;
  void loadList(id, kind);
}

export async function loadList(id: string, kind: ListKind): Promise<void> {
  // Resources and templates load page by page (resources/paging.ts): the first page here.
  if (kind === "resources" || kind === "resource_templates") return loadFirstPage(id, kind);
  const server = serverState(id);
  if (!server) return;
  const session = server.session;
  const previous = serverLists(id)[kind];
  setList(id, kind, { ...previous, status: "loading", error: null });
  try {
    const listed = await ipc.listItems(id, kind);
    if (serverState(id)?.session !== session) return;
    setList(id, kind, { status: "loaded", items: listed.items, error: null, cache: listed.cache });
  } catch (error) {
    if (serverState(id)?.session !== session) return;
    setList(id, kind, { status: "error", items: previous.items, error: errorMessage(error) });
  }
}

// ---------------------------------------------------------------------------------------------
// View state (kept per server so switching servers keeps each one's place)

export function setTab(id: string, tab: TabId): void {
  updateServer(id, (s) => (s.tab === tab ? s : { ...s, tab }));
}

export function selectTool(id: string, name: string | null): void {
  updateServer(id, (s) => ({ ...s, tools: { ...s.tools, selected: name } }));
}

export function setToolForm(id: string, name: string, formData: JsonValue): void {
  updateServer(id, (s) => ({
    ...s,
    tools: { ...s.tools, forms: { ...s.tools.forms, [name]: formData } },
  }));
}

export function selectResource(id: string, uri: string | null): void {
  updateServer(id, (s) => ({
    ...s,
    resources: { ...s.resources, selected: uri, uriInput: uri ?? s.resources.uriInput },
  }));
}

export function setResourceUriInput(id: string, uriInput: string): void {
  updateServer(id, (s) => ({ ...s, resources: { ...s.resources, uriInput } }));
}

export function selectPrompt(id: string, name: string | null): void {
  updateServer(id, (s) => ({ ...s, prompts: { ...s.prompts, selected: name } }));
}

export function setPromptArg(id: string, prompt: string, arg: string, value: string): void {
  updateServer(id, (s) => ({
    ...s,
    prompts: {
      ...s.prompts,
      args: { ...s.prompts.args, [prompt]: { ...s.prompts.args[prompt], [arg]: value } },
    },
  }));
}

/** Shows one frame in the Traffic tab (from an exchange that carried it). */
/** The Network tab with HTTP exchange `seq` selected (the one that carried a frame). */
export function showExchange(id: string, seq: number): void {
  selectExchange(id, seq);
  setTab(id, "network");
}

export function showFrame(id: string, seq: number): void {
  setTab(id, "traffic");
  // Stop following so the list scrolls to it and stays there (the detail pane shows it even
  // when the filter hides its row).
  setTrafficView(id, { follow: false, selectedSeq: seq });
}

/**
 * The user's decision about a URL a -32042 error named, made in the consent dialog: recorded,
 * and the URL opened when the decision is "open". Returns an error message or null.
 */
export async function consentUrl(
  id: string,
  url: string,
  elicitationId: string,
  decision: UrlDecision,
): Promise<string | null> {
  try {
    await ipc.consentUrl(id, url, elicitationId, decision);
    return null;
  } catch (error) {
    return errorMessage(error);
  }
}
