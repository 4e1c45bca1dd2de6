// The OAuth view of a remote server: every step of the last sign-in (what was asked, the HTTP
// exchange behind it, what was decided and why), the resulting token with its values masked,
// and where tokens are kept.
import { CircleAlert, CircleCheck, CircleX, KeyRound, LogOut, RefreshCw } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import type { AuthReport } from "../bindings/AuthReport";
import type { StepOutcome } from "../bindings/StepOutcome";
import { ErrorBox } from "../common/ErrorBox";
import { errorMessage, ipc } from "../ipc";
import type { ServerState } from "../state/connections";

const ICONS: Record<StepOutcome, typeof CircleCheck> = {
  ok: CircleCheck,
  warning: CircleAlert,
  failed: CircleX,
};

function expiry(at: number | null): string {
  if (at === null) return "no expiry given";
  const seconds = Math.round(at - Date.now() / 1000);
  const when = new Date(at * 1000).toLocaleString();
  return seconds > 0 ? `${when} (in ${Math.round(seconds / 60)} min)` : `${when} (expired)`;
}

export function OAuthTab({ server }: { server: ServerState }) {
  const [report, setReport] = useState<AuthReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setReport(await ipc.oauthReport(server.id));
      setError(null);
    } catch (e) {
      setError(errorMessage(e));
    }
  }, [server.id]);
  // Again whenever the connection changes state (a sign-in happens while connecting). The
  // state is set when the IPC answers, not in the effect itself.
  const status = server.status.state;
  useEffect(() => {
    let live = true;
    ipc.oauthReport(server.id).then(
      (r) => {
        if (live) {
          setReport(r);
          setError(null);
        }
      },
      (e: unknown) => {
        if (live) setError(errorMessage(e));
      },
    );
    return () => {
      live = false;
    };
  }, [server.id, status]);

  const signOut = async () => {
    try {
      await ipc.signOut(server.id);
      await load();
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  return (
    <div className="oauth-tab" data-testid="oauth-view">
      <div className="oauth-toolbar">
        <h3>
          <KeyRound size={16} aria-hidden /> Sign-in
        </h3>
        <button type="button" className="button" data-testid="oauth-refresh" onClick={() => void load()}>
          <RefreshCw size={14} aria-hidden /> Refresh
        </button>
        {report?.token && (
          <button type="button" className="button" data-testid="oauth-sign-out" onClick={() => void signOut()}>
            <LogOut size={14} aria-hidden /> Sign out
          </button>
        )}
      </div>
      {error && <ErrorBox message={error} />}
      {report === null ? (
        <p className="muted">Connect to this server to see its sign-in. A server that does not answer 401 needs none.</p>
      ) : (
        <>
          <p className="oauth-store" data-testid="oauth-store" data-backend={report.store}>
            Tokens are kept {report.store === "keychain" ? "in the OS keychain" : "in an owner-only file (mode 0600)"}
            {report.store_note ? ` — ${report.store_note}` : ""}.
          </p>
          {report.token ? (
            <dl className="oauth-token" data-testid="oauth-token">
              <dt>Issuer</dt>
              <dd className="mono">{report.token.issuer}</dd>
              <dt>Scopes</dt>
              <dd className="mono">{report.token.scope ?? "(none)"}</dd>
              <dt>Expires</dt>
              <dd>{expiry(report.token.expires_at)}</dd>
              <dt>Refresh token</dt>
              <dd>{report.token.has_refresh_token ? "yes (refreshed automatically)" : "no"}</dd>
              <dt>Access token</dt>
              <dd className="mono" data-testid="oauth-token-value">
                {report.token.access_token_masked}
              </dd>
              <dt>Client</dt>
              <dd>
                <span className="mono">{report.token.client_id}</span>{" "}
                <span className="muted">({report.token.client_source})</span>
              </dd>
            </dl>
          ) : (
            <p className="muted" data-testid="oauth-no-token">
              Not signed in.
            </p>
          )}
          {report.steps.length > 0 && (
            <ol className="oauth-steps">
              {report.steps.map((step, i) => {
                const Icon = ICONS[step.outcome];
                return (
                  <li key={i} className={`oauth-step ${step.outcome}`} data-testid="oauth-step" data-outcome={step.outcome}>
                    <Icon size={14} aria-hidden />
                    <div>
                      <div className="oauth-step-title">{step.title}</div>
                      <div className="oauth-step-detail">{step.detail}</div>
                      {step.http && <code className="oauth-step-http">{step.http}</code>}
                    </div>
                  </li>
                );
              })}
            </ol>
          )}
        </>
      )}
    </div>
  );
}
