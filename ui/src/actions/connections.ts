// Connecting to servers and keeping up with them: connect, disconnect, reconnect, every
// connection's status, and what a connection recorded before the UI was there to hear it.
import type { ServerIdentity } from "../bindings/ServerIdentity";
import type { Problem } from "../bindings/Problem";
import i18n from "../i18n";
import { isProblem } from "../i18n/problem";
import { errorMessage, ipc } from "../ipc";
import {
  addAppError,
  beginConnect,
  connections,
  select,
  serverState,
  setActionError,
  setConnections,
  setIdentity,
  updateServer,
} from "../state/connections";
import { logsChanged, serverConsole } from "../state/logs";
import { serverTraffic, setSummary, trafficChanged } from "../state/traffic";

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

export async function connect(id: string): Promise<void> {
  return connectThrough(id, () => ipc.connect(id));
}

/** Reconnects in the legacy era, where the doctor said what failed works. */
export async function reconnectLegacy(id: string): Promise<void> {
  return connectThrough(id, () => ipc.reconnectLegacy(id));
}

/** Each server's latest connect attempt: an earlier one given up on (the user chose the legacy
 * era while it probed) says nothing when it ends. */
const attempts = new Map<string, number>();

async function connectThrough(id: string, open: () => Promise<ServerIdentity>): Promise<void> {
  const attempt = (attempts.get(id) ?? 0) + 1;
  attempts.set(id, attempt);
  beginConnect(id);
  try {
    const identity = await open();
    const session = serverState(id)?.session ?? 0;
    setIdentity(id, session, identity);
    updateServer(id, (s) => ({ ...s, busy: null }));
  } catch (error) {
    if (attempts.get(id) !== attempt) return;
    const message = errorMessage(error);
    updateServer(id, (s) => {
      // A connection that is up was not what failed (e.g. it was already connected): say so.
      if (s.status.state === "ready") return { ...s, busy: null, actionError: i18n.t("state:connectFailed", { error: message }) };
      // Otherwise this attempt failed. The `failed` status event carries the stderr tail; until
      // it comes (or if it never does), the rejection's message is the failure.
      const problem: Problem = isProblem(error) ? error : { kind: "internal", detail: message };
      const status = s.status.state === "failed" ? s.status : { state: "failed" as const, error: problem, stderr_tail: [], diagnoses: [] };
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
