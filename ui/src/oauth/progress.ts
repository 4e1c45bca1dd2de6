// How far a sign-in has got, read from what the app already tells the UI: the engine sends no
// event per OAuth step (its report can only be read once the sign-in is over), so the phase is
// inferred from the server's HTTP 401/403 in the Network log (discovery and registration start),
// the sign-in dialog waiting (the authorization URL is built: both are done), and the user's
// "Sign in" decision (the browser is open; the code is exchanged for a token when it answers).
// Times are the engine's wall clock, the same machine's as the UI's.
import type { Decision } from "../bindings/Decision";
import type { PendingAsk } from "../bindings/PendingAsk";
import i18n from "../i18n";
import { useAsks, useServerRequests } from "../state/asks";
import { onSessionStart, useServer } from "../state/connections";
import { useTraffic } from "../state/traffic";

export type SignInPhase = "discovery" | "approval" | "browser";

export interface SignInProgress {
  phase: SignInPhase;
  /** When the current phase began (ms since the epoch). */
  since: number;
  /** When the server asked for a sign-in (its 401/403), if seen (ms since the epoch). */
  challengedAt: number | null;
  /** When the sign-in dialog appeared, if it did (ms since the epoch). */
  askedAt: number | null;
}

/** How long Periscope waits for the browser to come back (the app's LoopbackBrowser). */
export const BROWSER_WAIT_MINUTES = 10;

// When each server's current connection attempt started, as the UI saw it.
const connectingSince = new Map<string, number>();
onSessionStart((serverId, wallUs) => connectingSince.set(serverId, wallUs / 1000));

/** When the server's current connection attempt started (ms since the epoch), if known. */
export function connectStartedAt(serverId: string): number | null {
  return connectingSince.get(serverId) ?? null;
}

const isChallenge = (status: number | null) => status === 401 || status === 403;

/** The sign-in dialog waiting for this server, if one is. */
function signInAsk(asks: PendingAsk[], serverId: string): PendingAsk | null {
  return asks.find((a) => a.server_id === serverId && a.ask.kind === "sign_in") ?? null;
}

/**
 * Where this server's sign-in is, or null when none is running. Discovery and the browser are
 * followed while the connection is being made (where sign-ins happen); the dialog whenever it is up.
 */
export function useSignInProgress(serverId: string): SignInProgress | null {
  const connecting = useServer(serverId)?.status.state === "connecting";
  // The last HTTP exchange of this connection, when the server refused it for want of a token:
  // the request waits for the sign-in, so nothing follows it until the sign-in ends.
  const challengedUs = useTraffic((s) => {
    const exchanges = s[serverId]?.network.exchanges;
    const last = exchanges?.[exchanges.length - 1];
    return last && isChallenge(last.status) ? last.wall_us : null;
  });
  const ask = useAsks((s) => (s.pending.size === 0 ? null : signInAsk(s.pending.list(), serverId)));
  const { decisions } = useServerRequests(serverId);
  const challengedAt = challengedUs === null ? null : challengedUs / 1000;
  if (ask) {
    const askedAt = ask.received_wall_us / 1000;
    return { phase: "approval", since: askedAt, challengedAt, askedAt };
  }
  if (!connecting || challengedUs === null) return null;
  let approved: Decision | undefined;
  for (let i = decisions.length - 1; i >= 0 && !approved; i--) {
    const d = decisions[i];
    if (d && d.method === "oauth/authorize" && d.decision === "sign_in" && d.wall_us >= challengedUs) approved = d;
  }
  if (approved) {
    return { phase: "browser", since: approved.wall_us / 1000, challengedAt, askedAt: null };
  }
  return { phase: "discovery", since: challengedUs / 1000, challengedAt, askedAt: null };
}

/** A duration in the current language: "8 s", "2 min 05 s" (whole seconds, never negative). */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  if (minutes === 0) return i18n.t("oauth:duration.seconds", { seconds });
  return i18n.t("oauth:duration.minutes", { minutes, seconds: String(seconds).padStart(2, "0") });
}
