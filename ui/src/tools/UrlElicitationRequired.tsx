// A tool call answered with error -32042 (URLElicitationRequiredError): the server names web
// pages the user must visit first. Each is reviewed in the same consent dialog as a URL
// elicitation (nothing opens before the click), its completion is tracked from
// notifications/elicitation/complete, and the call can be retried with the same arguments.
import { ExternalLink, RotateCcw } from "lucide-react";
import { useState } from "react";
import { consentUrl } from "../actions";
import type { UrlAnalysis } from "../bindings/UrlAnalysis";
import type { UrlDecision } from "../bindings/UrlDecision";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { ErrorBox } from "../common/ErrorBox";
import { UrlConsentDialog } from "../answering/UrlConsentDialog";
import { errorMessage, ipc, type JsonObject } from "../ipc";
import { isObject } from "../json";
import { callTool } from "../state/calls";
import { type ServerState, useConnections } from "../state/connections";
import { useServerRequests } from "../state/asks";

export const URL_ELICITATION_REQUIRED = -32042;

interface Needed {
  elicitationId: string;
  url: string;
  message: string;
}

/** The URL elicitations in the error's data; odd entries are skipped, never fatal. */
export function neededElicitations(data: JsonValue | null): Needed[] {
  if (!isObject(data) || !Array.isArray(data.elicitations)) return [];
  return data.elicitations.flatMap((e) => {
    if (!isObject(e) || typeof e.url !== "string") return [];
    return [
      {
        url: e.url,
        elicitationId: typeof e.elicitationId === "string" ? e.elicitationId : "",
        message: typeof e.message === "string" ? e.message : "",
      },
    ];
  });
}

const DECIDED: Record<UrlDecision, string> = {
  open: "opened in your browser",
  accept_without_opening: "accepted, not opened",
  decline: "declined",
  cancel: "not decided",
};

export function UrlElicitationRequired(props: {
  server: ServerState;
  toolName: string;
  data: JsonValue | null;
  args: JsonObject;
}) {
  const { server, toolName, data, args } = props;
  const serverName = useConnections((s) => s.catalog.find((e) => e.id === server.id)?.name ?? server.id);
  const needed = neededElicitations(data);
  const [reviewing, setReviewing] = useState<{ item: Needed; analysis: UrlAnalysis } | null>(null);
  const [decided, setDecided] = useState<Record<string, UrlDecision>>({});
  const [error, setError] = useState<string | null>(null);
  const completed = useServerRequests(server.id).completed;
  const allDone = needed.length > 0 && needed.every((n) => completed.includes(n.elicitationId));

  const review = async (item: Needed) => {
    try {
      setError(null);
      setReviewing({ item, analysis: await ipc.analyzeUrl(server.id, item.url) });
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const decide = async (decision: UrlDecision) => {
    if (!reviewing) return;
    const { item } = reviewing;
    setReviewing(null);
    setDecided((d) => ({ ...d, [item.elicitationId]: decision }));
    setError(await consentUrl(server.id, item.url, item.elicitationId, decision));
  };

  return (
    <section className="url-required" data-testid="url-required">
      <h3>The server needs you to visit {needed.length === 1 ? "a web page" : `${needed.length} web pages`} first</h3>
      <p className="hint">
        <code>{toolName}</code> was answered with URLElicitationRequiredError (-32042). Complete each step
        below, then retry the call with the same arguments.
      </p>
      {needed.length === 0 && <p className="muted">The error names no URL elicitation this client can read.</p>}
      <ul className="url-required-list">
        {needed.map((item) => {
          const done = completed.includes(item.elicitationId);
          const decision = decided[item.elicitationId];
          return (
            <li key={item.elicitationId || item.url} data-testid="url-required-item" data-done={String(done)}>
              {item.message && <p>{item.message}</p>}
              <code className="url-required-url">{item.url}</code>
              <div className="url-required-actions">
                <span className={done ? "badge ok" : "badge"} data-testid="url-required-state">
                  {done ? "completed by the server" : decision ? DECIDED[decision] : "not visited yet"}
                </span>
                {!done && (
                  <button
                    type="button"
                    className="button"
                    data-testid="url-required-review"
                    onClick={() => void review(item)}
                  >
                    <ExternalLink size={14} aria-hidden /> Review and open…
                  </button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      {error && <ErrorBox message={error} />}
      <button
        type="button"
        className={allDone ? "button button-primary" : "button"}
        data-testid="url-required-retry"
        onClick={() => void callTool(server.id, toolName, args)}
      >
        <RotateCcw size={14} aria-hidden /> Retry {toolName}
        {allDone ? " (every step is complete)" : ""}
      </button>
      {reviewing && (
        <div className="ask-backdrop">
          <div className="ask-dialog" role="dialog" aria-modal="true" data-testid="ask-dialog" data-kind="url_required">
            <UrlConsentDialog
              key={reviewing.item.url}
              serverName={serverName}
              message={reviewing.item.message}
              url={reviewing.item.url}
              analysis={reviewing.analysis}
              onDecide={(d) => void decide(d)}
            />
          </div>
        </div>
      )}
    </section>
  );
}
