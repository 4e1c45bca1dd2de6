// Toasts: short notices of completions and failures (a call that failed, a long call that
// finished out of sight, a connection that dropped, a list that could not be refreshed, servers
// added), shown by sonner. Which events make a toast is decided by pure functions here (tested);
// a toast about frames links to them: a call's answer in Traffic, a dropped server's stderr in
// Console or its last frame in Traffic.
import { toast } from "sonner";
import type { AppEvent } from "../bindings/AppEvent";
import type { TrafficFilter } from "../bindings/TrafficFilter";
import { problemText } from "../i18n/problem";
import { ALL_FRAMES } from "../traffic/filter";
import type { HistoryEntry } from "../bindings/HistoryEntry";
import type { ServerEntry } from "../bindings/ServerEntry";
import i18n from "../i18n";
import type { ListKind } from "../ipc";
import type { ServerState } from "../state/connections";

export type ToastKind = "info" | "success" | "error";

/** Where a toast's button goes. */
export type ToastLink =
  /** "Show frame": the newest answer to `method` recorded since `sinceUs`, selected in Traffic
   * (found when clicked; Traffic itself when the record no longer has it). */
  | { to: "answer"; serverId: string; method: string; sinceUs: number }
  /** "Show stderr": the server's Console, where its last stderr lines are. */
  | { to: "console"; serverId: string }
  /** "Show last frame": the server's newest frame, selected in Traffic. */
  | { to: "lastFrame"; serverId: string };

/** What a toast says and where its link goes. */
export interface ToastSpec {
  kind: ToastKind;
  message: string;
  /** A longer line under the message. */
  detail?: string;
  link?: ToastLink;
}

/** The method whose answer a history entry's call got. */
export const CALL_METHOD: Record<HistoryEntry["kind"], string> = {
  tool: "tools/call",
  resource: "resources/read",
  prompt: "prompts/get",
};

/** The method that lists each kind of list. */
export const LIST_METHOD: Record<ListKind, string> = {
  tools: "tools/list",
  resources: "resources/list",
  resource_templates: "resources/templates/list",
  prompts: "prompts/list",
};

/** A call that took at least this long gets a toast when it succeeds out of the user's sight. */
export const LONG_CALL_US = 2_000_000;

/** What the server state was before a batch: to tell a dropped connection from a user's disconnect. */
export type Before = (serverId: string) => Pick<ServerState, "status" | "busy"> | undefined;

/** Whether the user is looking at where a call of this kind on this server shows its result. */
export type Watching = (serverId: string, kind: HistoryEntry["kind"]) => boolean;

const answerLink = (serverId: string, entry: HistoryEntry): ToastLink => ({
  to: "answer",
  serverId,
  method: CALL_METHOD[entry.kind],
  sinceUs: entry.started_wall_us,
});

/** "2.4 s": a call's duration. */
const seconds = (us: number) => i18n.t("feedback:seconds", { seconds: (us / 1_000_000).toFixed(1) });

/**
 * The toasts a batch of events makes, given each server's state before it, its name, and
 * whether the user watches a call's result (a quick call they watched finish makes no toast;
 * without `watching`, no success toast at all). A failed call makes one only out of sight too:
 * where the user watches, the result pane already says it, and a toast there would cover what
 * they need next (the "Review and open" of a URL elicitation, a Retry).
 */
export function toastsForEvents(
  events: readonly AppEvent[],
  before: Before,
  name: (serverId: string) => string,
  watching: Watching = () => true,
): ToastSpec[] {
  const out: ToastSpec[] = [];
  for (const event of events) {
    if (event.type === "history") {
      const { entry } = event;
      const server = name(event.server_id);
      if (entry.outcome !== "ok") {
        if (watching(event.server_id, entry.kind)) continue;
        out.push({
          kind: "error",
          message: i18n.t(`feedback:call.failed.${entry.kind}`, { target: entry.target }),
          detail:
            entry.outcome === "is_error"
              ? i18n.t("feedback:call.toolError", { server })
              : i18n.t("feedback:call.serverError", { server }),
          link: answerLink(event.server_id, entry),
        });
      } else if (entry.duration_us >= LONG_CALL_US && !watching(event.server_id, entry.kind)) {
        out.push({
          kind: "success",
          message: i18n.t(`feedback:call.finished.${entry.kind}`, { target: entry.target }),
          detail: i18n.t("feedback:call.took", { server, duration: seconds(entry.duration_us) }),
          link: answerLink(event.server_id, entry),
        });
      }
    }
    if (event.type === "status") {
      const was = before(event.server_id);
      const wasUp = was?.status.state === "ready";
      const userAsked = was?.busy === "disconnecting" || was?.busy === "connecting";
      if (wasUp && !userAsked && (event.status.state === "failed" || event.status.state === "disconnected")) {
        const stderr = event.status.state === "failed" && event.status.stderr_tail.length > 0;
        out.push({
          kind: "error",
          message: i18n.t("feedback:dropped", { server: name(event.server_id) }),
          detail: event.status.state === "failed" ? problemText(event.status.error) : undefined,
          // Its last words: on stderr when it wrote any, else the last frames it exchanged.
          link: stderr ? { to: "console", serverId: event.server_id } : { to: "lastFrame", serverId: event.server_id },
        });
      }
    }
  }
  return out;
}

/**
 * A toast when a list the app refreshed by itself (the server said it changed) could not be
 * listed, for a list the user is not looking at: linked to the error's frame.
 */
export function listErrorToast(
  serverId: string,
  server: string,
  kind: ListKind,
  error: string,
  sinceUs: number,
): ToastSpec {
  return {
    kind: "error",
    message: i18n.t(`feedback:listFailed.${kind}`, { server }),
    detail: error,
    link: { to: "answer", serverId, method: LIST_METHOD[kind], sinceUs },
  };
}

/** A toast when servers were added to a loaded catalog (an import, a new or duplicated entry). */
export function catalogToast(before: readonly ServerEntry[], after: readonly ServerEntry[]): ToastSpec | null {
  const known = new Set(before.map((e) => e.id));
  const added = after.filter((e) => !known.has(e.id));
  if (added.length === 0) return null;
  if (added.length === 1) return { kind: "success", message: i18n.t("feedback:added.one", { name: added[0]!.name }) };
  const names = added.slice(0, 3).map((e) => e.name);
  const list = names.join(i18n.t("feedback:added.separator"));
  return {
    kind: "success",
    message: i18n.t("feedback:added.many", { count: added.length }),
    detail: added.length > 3 ? i18n.t("feedback:added.more", { names: list }) : list,
  };
}

/**
 * What finds the frame that answered a request: the responses to `method` recorded from
 * `sinceUs` on; the newest is the answer (none when a new session restarted the record).
 */
export function answerFilter(method: string, sinceUs: number): TrafficFilter {
  return { ...ALL_FRAMES, kinds: ["response", "error_response"], method, from_wall_us: sinceUs };
}

/** The words of a link's button. */
export function linkLabel(link: ToastLink): string {
  switch (link.to) {
    case "answer":
      return i18n.t("feedback:link.frame");
    case "console":
      return i18n.t("feedback:link.stderr");
    case "lastFrame":
      return i18n.t("feedback:link.lastFrame");
  }
}

/** Shows a toast; `follow` is how its link is followed (kept out of here: no cycle with actions/toastLinks.ts). */
export function showToast(spec: ToastSpec, follow?: (link: ToastLink) => void): void {
  const link = spec.link;
  const options = {
    description: spec.detail,
    action: link && follow ? { label: linkLabel(link), onClick: () => follow(link) } : undefined,
  };
  if (spec.kind === "error") toast.error(spec.message, options);
  else if (spec.kind === "success") toast.success(spec.message, options);
  else toast(spec.message, options);
}

/** For the keyboard's and palette's "nothing to do" notices, and an export's outcome. */
export const notify = {
  info: (message: string): void => showToast({ kind: "info", message }),
  success: (message: string): void => showToast({ kind: "success", message }),
  error: (message: string): void => showToast({ kind: "error", message }),
};
