// The one event dispatcher: every batch of AppEvents the app pushes comes here, and each event
// goes to the state manager that owns it. It does no IPC itself: what the caller should fetch
// next comes back as `EventEffects` (actions/events.ts does it).
import type { AppEvent } from "../bindings/AppEvent";
import type { ListKind } from "../ipc";
import { addAsks, addCompleted, addDecision, addWarning, removeAsk } from "./asks";
import { noteCallProgress } from "./calls";
import { applyStatusEvent, ensureServer, noteProbeWaiting, updateServerSoon } from "./connections";
import { noteListChange, refetchKinds } from "./lists";
import { addLogsHeld, addNotification, addStderr } from "./logs";
import { addHistoryEntry } from "./saved";
import { noteTask } from "./tasks";
import { appendExchanges, setSummary } from "./traffic";


/** What the caller should do after a batch of events. */
export interface EventEffects {
  /** Lists to fetch again (a list-changed notification for a list already loaded). */
  refetch: Array<{ serverId: string; kind: ListKind }>;
  /** Servers that became ready without a known identity: ask `connections` again. */
  needIdentity: string[];
  /** The catalog changed outside the UI (a server opened from the command line): fetch it. */
  reloadCatalog: boolean;
}

/** Applies a batch of events in order; views hear about it on the next frame. */
export function dispatchEvents(events: readonly AppEvent[], nowUs: number = Date.now() * 1000): EventEffects {
  const effects: EventEffects = { refetch: [], needIdentity: [], reloadCatalog: false };
  for (const event of events) {
    // Every server an event names gets a state (as the catalog's servers have).
    if ("server_id" in event) ensureServer(event.server_id);
    switch (event.type) {
      case "traffic_changed":
        setSummary(event.server_id, event.summary);
        break;
      case "http":
        appendExchanges(event.server_id, [event.exchange]);
        break;
      case "stderr":
        addStderr(event.server_id, event.lines);
        break;
      case "status": {
        const server = applyStatusEvent(event.server_id, event.status, nowUs);
        const needs = effects.needIdentity;
        if (event.status.state === "ready" && server.identity === null) {
          if (!needs.includes(server.id)) needs.push(server.id);
        } else if (event.status.state !== "ready") {
          effects.needIdentity = needs.filter((id) => id !== server.id);
        }
        break;
      }
      case "ask":
        addAsks([event.ask], true);
        break;
      case "ask_closed":
        removeAsk(event.ask_id, true);
        break;
      case "decision":
        addDecision(event.server_id, event.decision);
        break;
      case "logs_held":
        addLogsHeld(event.server_id, event.count, event.per_second, nowUs);
        break;
      case "listen": {
        const listen = event.state;
        updateServerSoon(event.server_id, (server) => ({ ...server, listen }));
        break;
      }
      case "warning":
        addWarning(event.server_id, event.problem, nowUs);
        break;
      case "probe_waiting":
        noteProbeWaiting(event.server_id);
        break;
      case "call_progress":
        noteCallProgress(event.server_id, event.call_id, event.progress, event.total, event.message);
        break;
      case "task":
        noteTask(event.server_id, event.entry, true);
        break;
      case "history":
        addHistoryEntry(event.server_id, event.entry);
        break;
      case "catalog":
        effects.reloadCatalog = true;
        break;
      case "notification": {
        const id = event.server_id;
        const n = event.notification;
        if (n.kind === "elicitation_complete") addCompleted(id, n.elicitation_id);
        if (n.kind === "resource_updated") {
          updateServerSoon(id, (server) => {
            const previous = server.resources.updated?.[n.uri];
            const entry = { wallUs: nowUs, count: (previous?.count ?? 0) + 1, stale: true };
            return { ...server, resources: { ...server.resources, updated: { ...server.resources.updated, [n.uri]: entry } } };
          });
        }
        addNotification(id, n, nowUs);
        noteListChange(id, n, nowUs / 1000);
        for (const kind of refetchKinds(id, n)) {
          if (!effects.refetch.some((r) => r.serverId === id && r.kind === kind)) effects.refetch.push({ serverId: id, kind });
        }
        break;
      }
    }
  }
  return effects;
}
