// The OAuth view of a remote server: every step of the last sign-in (what was asked, the HTTP
// exchange behind it, what was decided and why), the resulting token with its values masked,
// and where tokens are kept.
import { CircleAlert, CircleCheck, CircleX, KeyRound, LogOut, RefreshCw } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { connect } from "../actions/connections";
import type { AuthReport } from "../bindings/AuthReport";
import type { StepOutcome } from "../bindings/StepOutcome";
import { EmptyState } from "../common/EmptyState";
import { ErrorBox } from "../common/ErrorBox";
import i18n from "../i18n";
import { errorMessage, ipc } from "../ipc";
import type { ServerState } from "../state/connections";
import { useSignInProgress } from "./progress";
import { SignInProgress } from "./SignInProgress";

const ICONS: Record<StepOutcome, typeof CircleCheck> = {
  ok: CircleCheck,
  warning: CircleAlert,
  failed: CircleX,
};

function expiry(at: number | null): string {
  if (at === null) return i18n.t("oauth:token.noExpiry");
  const seconds = Math.round(at - Date.now() / 1000);
  const when = new Date(at * 1000).toLocaleString(i18n.language);
  return seconds > 0
    ? i18n.t("oauth:token.expiresIn", { when, minutes: Math.round(seconds / 60) })
    : i18n.t("oauth:token.expired", { when });
}

export function OAuthTab({ server }: { server: ServerState }) {
  const { t } = useTranslation(["oauth", "common"]);
  const progress = useSignInProgress(server.id);
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

  const noReport =
    status === "connecting" ? (
      <EmptyState title={t("empty.connecting.title")}>{t("empty.connecting.body")}</EmptyState>
    ) : (
      <EmptyState
        title={t("empty.notConnected.title")}
        action={
          <button type="button" className="button button-primary" onClick={() => void connect(server.id)}>
            {t("common:connect")}
          </button>
        }
      >
        {t("empty.notConnected.body")}
      </EmptyState>
    );

  return (
    <div className="oauth-tab" data-testid="oauth-view">
      <div className="oauth-toolbar">
        <h3>
          <KeyRound size={16} aria-hidden /> {t("title")}
        </h3>
        <button type="button" className="button" data-testid="oauth-refresh" onClick={() => void load()}>
          <RefreshCw size={14} aria-hidden /> {t("common:refresh")}
        </button>
        {report?.token && (
          <button type="button" className="button" data-testid="oauth-sign-out" onClick={() => void signOut()}>
            <LogOut size={14} aria-hidden /> {t("signOut")}
          </button>
        )}
      </div>
      {error && <ErrorBox message={error} />}
      {progress && <SignInProgress progress={progress} />}
      {report === null ? (
        !progress && noReport
      ) : (
        <>
          <p className="oauth-store" data-testid="oauth-store" data-backend={report.store}>
            {report.store_note
              ? t(report.store === "keychain" ? "store.keychainNote" : "store.fileNote", { note: report.store_note })
              : t(report.store === "keychain" ? "store.keychain" : "store.file")}
          </p>
          {report.token ? (
            <dl className="oauth-token" data-testid="oauth-token">
              <dt>{t("token.issuer")}</dt>
              <dd className="mono">{report.token.issuer}</dd>
              <dt>{t("token.scopes")}</dt>
              <dd className="mono">{report.token.scope ?? t("token.noScope")}</dd>
              <dt>{t("token.expires")}</dt>
              <dd>{expiry(report.token.expires_at)}</dd>
              <dt>{t("token.refreshToken")}</dt>
              <dd>{report.token.has_refresh_token ? t("token.refreshYes") : t("token.refreshNo")}</dd>
              <dt>{t("token.accessToken")}</dt>
              <dd className="mono" data-testid="oauth-token-value">
                {report.token.access_token_masked}
              </dd>
              <dt>{t("token.client")}</dt>
              <dd>
                <span className="mono">{report.token.client_id}</span>{" "}
                <span className="muted">({report.token.client_source})</span>
              </dd>
            </dl>
          ) : report.steps.length === 0 && !progress ? (
            <EmptyState testId="oauth-no-token" title={t("empty.noSignIn.title")}>
              {t("empty.noSignIn.body")}
            </EmptyState>
          ) : (
            <p className="muted" data-testid="oauth-no-token">
              {t("notSignedIn")}
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
