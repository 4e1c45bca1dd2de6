// Toasts: short notices of completions and failures (a call that failed, a connection that
// dropped, servers added), shown by sonner. Which events make a toast is decided by pure
// functions here (tested); a toast about a call links to its frame in Traffic.
import { toast } from "sonner";
import type { AppEvent } from "../bindings/AppEvent";
import type { FrameRow } from "../bindings/FrameRow";
import type { HistoryEntry } from "../bindings/HistoryEntry";
import type { ServerEntry } from "../bindings/ServerEntry";
import type { ServerState } from "../state/connections";

export type ToastKind = "info" | "success" | "error";

/** What a toast says and where its link goes. */
export interface ToastSpec {
  kind: ToastKind;
  message: string;
  /** A longer line under the message. */
  detail?: string;
  /** "Show frame" selects this call's answer in Traffic (found when clicked). */
  frame?: { serverId: string; entry: HistoryEntry };
}

const METHOD: Record<HistoryEntry["kind"], string> = {
  tool: "tools/call",
  resource: "resources/read",
  prompt: "prompts/get",
};

const VERB: Record<HistoryEntry["kind"], string> = { tool: "Call of", resource: "Read of", prompt: "Get of" };

/** What the server state was before a batch: to tell a dropped connection from a user's disconnect. */
export type Before = (serverId: string) => Pick<ServerState, "status" | "busy"> | undefined;

/** The toasts a batch of events makes, given each server's state before it and its name. */
export function toastsForEvents(events: readonly AppEvent[], before: Before, name: (serverId: string) => string): ToastSpec[] {
  const out: ToastSpec[] = [];
  for (const event of events) {
    if (event.type === "history" && event.entry.outcome !== "ok") {
      const { entry } = event;
      const how = entry.outcome === "is_error" ? "the tool reported an error" : "the server answered with an error";
      out.push({
        kind: "error",
        message: `${VERB[entry.kind]} ${entry.target} failed`,
        detail: `${name(event.server_id)}: ${how}.`,
        frame: { serverId: event.server_id, entry },
      });
    }
    if (event.type === "status") {
      const was = before(event.server_id);
      const wasUp = was?.status.state === "ready";
      const userAsked = was?.busy === "disconnecting" || was?.busy === "connecting";
      if (wasUp && !userAsked && (event.status.state === "failed" || event.status.state === "disconnected")) {
        out.push({
          kind: "error",
          message: `${name(event.server_id)}: the connection dropped`,
          detail: event.status.state === "failed" ? event.status.error : undefined,
        });
      }
    }
  }
  return out;
}

/** A toast when servers were added to a loaded catalog (an import, a new or duplicated entry). */
export function catalogToast(before: readonly ServerEntry[], after: readonly ServerEntry[]): ToastSpec | null {
  const known = new Set(before.map((e) => e.id));
  const added = after.filter((e) => !known.has(e.id));
  if (added.length === 0) return null;
  if (added.length === 1) return { kind: "success", message: `Added “${added[0]!.name}” to the servers` };
  const names = added.slice(0, 3).map((e) => e.name).join(", ");
  return { kind: "success", message: `Added ${added.length} servers`, detail: added.length > 3 ? `${names}, …` : names };
}

/**
 * The frame that answered a history entry: the newest response to its method recorded from
 * its start on. Null when the traffic no longer has it (a new session restarted the record).
 */
export function answerFrame(rows: readonly FrameRow[], entry: HistoryEntry): number | null {
  const method = METHOD[entry.kind];
  for (let i = rows.length - 1; i >= 0; i -= 1) {
    const row = rows[i]!;
    if (row.wall_us < entry.started_wall_us) break;
    if (row.method === method && (row.kind === "response" || row.kind === "error_response")) return row.seq;
  }
  return null;
}

/** Shows a toast; `showFrame` is how its link selects a frame (kept out of here: no cycle with actions.ts). */
export function showToast(spec: ToastSpec, showFrame?: (serverId: string, entry: HistoryEntry) => void): void {
  const frame = spec.frame;
  const options = {
    description: spec.detail,
    action: frame && showFrame ? { label: "Show frame", onClick: () => showFrame(frame.serverId, frame.entry) } : undefined,
  };
  if (spec.kind === "error") toast.error(spec.message, options);
  else if (spec.kind === "success") toast.success(spec.message, options);
  else toast(spec.message, options);
}

/** For the keyboard's and palette's "nothing to do" notices. */
export const notify = {
  info: (message: string): void => showToast({ kind: "info", message }),
};
