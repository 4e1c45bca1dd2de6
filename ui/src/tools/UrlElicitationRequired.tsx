// A tool call answered with a URL-elicitation-required error: the server names web pages the
// user must visit first (the engine reads them from the error: `CallError.url_required`). Each
// is reviewed in the same consent dialog as a URL elicitation (nothing opens before the click),
// its completion is tracked from notifications/elicitation/complete, and the call can be
// retried with the same arguments.
import { ExternalLink, RotateCcw } from "lucide-react";
import { useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { consentUrl } from "../actions/asks";
import type { UrlAnalysis } from "../bindings/UrlAnalysis";
import type { UrlDecision } from "../bindings/UrlDecision";
import type { UrlRequired } from "../bindings/UrlRequired";
import { ErrorBox } from "../common/ErrorBox";
import { UrlConsentDialog } from "../answering/UrlConsentDialog";
import { errorMessage, ipc, type JsonObject } from "../ipc";
import { callTool } from "../state/calls";
import { type ServerState, useConnections } from "../state/connections";
import { useServerRequests } from "../state/asks";

export function UrlElicitationRequired(props: {
  server: ServerState;
  toolName: string;
  needed: UrlRequired[];
  args: JsonObject;
}) {
  const { server, toolName, needed, args } = props;
  const { t } = useTranslation("tools");
  const serverName = useConnections((s) => s.catalog.find((e) => e.id === server.id)?.name ?? server.id);
  const [reviewing, setReviewing] = useState<{ item: UrlRequired; analysis: UrlAnalysis } | null>(null);
  const [decided, setDecided] = useState<Record<string, UrlDecision>>({});
  const [error, setError] = useState<string | null>(null);
  const completed = useServerRequests(server.id).completed;
  const allDone = needed.length > 0 && needed.every((n) => completed.includes(n.elicitation_id));

  const review = async (item: UrlRequired) => {
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
    setDecided((d) => ({ ...d, [item.elicitation_id]: decision }));
    setError(await consentUrl(server.id, item.url, item.elicitation_id, decision));
  };

  return (
    <section className="url-required" data-testid="url-required">
      <h3>{t("urlRequired.title", { count: needed.length })}</h3>
      <p className="hint">
        <Trans t={t} i18nKey="urlRequired.hint" values={{ tool: toolName }} components={{ code: <code /> }} />
      </p>
      {needed.length === 0 && <p className="muted">{t("urlRequired.none")}</p>}
      <ul className="url-required-list">
        {needed.map((item) => {
          const done = completed.includes(item.elicitation_id);
          const decision = decided[item.elicitation_id];
          return (
            <li key={item.elicitation_id || item.url} data-testid="url-required-item" data-done={String(done)}>
              {item.message && <p>{item.message}</p>}
              <code className="url-required-url">{item.url}</code>
              <div className="url-required-actions">
                <span className={done ? "badge ok" : "badge"} data-testid="url-required-state">
                  {done
                    ? t("urlRequired.completed")
                    : decision
                      ? t(`urlRequired.decided.${decision}`)
                      : t("urlRequired.notVisited")}
                </span>
                {!done && (
                  <button
                    type="button"
                    className="button"
                    data-testid="url-required-review"
                    onClick={() => void review(item)}
                  >
                    <ExternalLink size={14} aria-hidden /> {t("urlRequired.review")}
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
        <RotateCcw size={14} aria-hidden />{" "}
        {allDone ? t("urlRequired.retryAllDone", { tool: toolName }) : t("urlRequired.retry", { tool: toolName })}
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
