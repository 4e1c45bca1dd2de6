// Resource subscriptions: resources/subscribe and resources/unsubscribe, and reading again
// after a notifications/resources/updated (the store records those as they arrive).
import i18n from "../i18n";
import { errorMessage } from "../ipc";
import { resourcesIpc } from "../ipc";
import { readResource } from "../state/calls";
import { updateServer, type ServerState } from "../state/connections";

/** True when the server's handshake declared `resources.subscribe`. */
export function canSubscribe(server: ServerState): boolean {
  return server.identity?.offers.resources_subscribe ?? false;
}

export function isSubscribed(server: ServerState, uri: string): boolean {
  return server.resources.subscribed?.includes(uri) ?? false;
}

function setSubscribed(id: string, uri: string, on: boolean): void {
  updateServer(id, (s) => {
    const current = s.resources.subscribed ?? [];
    const subscribed = on ? [...current.filter((u) => u !== uri), uri] : current.filter((u) => u !== uri);
    return { ...s, resources: { ...s.resources, subscribed } };
  });
}

/** Subscribes or unsubscribes; resolves to an error message, or null when the server agreed. */
export async function setSubscription(id: string, uri: string, on: boolean): Promise<string | null> {
  try {
    if (on) await resourcesIpc.subscribe(id, uri);
    else await resourcesIpc.unsubscribe(id, uri);
    setSubscribed(id, uri, on);
    return null;
  } catch (error) {
    const values = { uri, error: errorMessage(error) };
    return on ? i18n.t("resources:subscribeFailed", values) : i18n.t("resources:unsubscribeFailed", values);
  }
}

/** Reads a resource (again): an update that came before this read is no longer news. */
export function readFresh(id: string, uri: string): Promise<void> {
  updateServer(id, (s) => {
    const entry = s.resources.updated?.[uri];
    if (!entry?.stale) return s;
    return { ...s, resources: { ...s.resources, updated: { ...s.resources.updated, [uri]: { ...entry, stale: false } } } };
  });
  return readResource(id, uri);
}
