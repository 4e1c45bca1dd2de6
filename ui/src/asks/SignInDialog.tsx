// A remote server requires sign-in: show who will be asked (the authorization server's host)
// and for what (the scopes) before the system browser opens, and where the sign-in is.
import { KeyRound, LogIn } from "lucide-react";
import { Trans, useTranslation } from "react-i18next";
import type { AuthorizationPrompt } from "../bindings/AuthorizationPrompt";
import { useSignInProgress } from "../oauth/progress";
import { SignInProgress } from "../oauth/SignInProgress";

export function SignInDialog(props: {
  serverId: string;
  serverName: string;
  prompt: AuthorizationPrompt;
  /** When the app asked (µs since the epoch). */
  receivedWallUs: number;
  onDecide: (proceed: boolean) => void;
}) {
  const { serverId, serverName, prompt, receivedWallUs, onDecide } = props;
  const { t } = useTranslation(["asks", "common"]);
  const tracked = useSignInProgress(serverId);
  const askedAt = receivedWallUs / 1000;
  const progress = tracked ?? { phase: "approval" as const, since: askedAt, challengedAt: null, askedAt };
  const scopes = prompt.scopes?.split(/\s+/).filter((s) => s !== "") ?? [];
  return (
    <div className="sign-in" data-testid="sign-in">
      <h2 className="sign-in-title">
        <KeyRound size={18} aria-hidden />{" "}
        <Trans t={t} i18nKey="signIn.title" values={{ server: serverName }} components={{ strong: <strong /> }} />
      </h2>
      <SignInProgress progress={progress} />
      <dl className="sign-in-facts">
        <dt>{t("signIn.authServer")}</dt>
        <dd className="sign-in-host" data-testid="sign-in-host">
          {prompt.auth_server_host}
        </dd>
        <dt>{t("signIn.access")}</dt>
        <dd data-testid="sign-in-scopes">
          {scopes.length === 0 ? (
            <span className="muted">{t("signIn.noScope")}</span>
          ) : (
            scopes.map((s) => (
              <code key={s} className="scope">
                {s}
              </code>
            ))
          )}
        </dd>
      </dl>
      <details className="sign-in-url">
        <summary>{t("signIn.page")}</summary>
        <code data-testid="sign-in-url">{prompt.url}</code>
      </details>
      <p className="muted">{t("signIn.explain")}</p>
      <div className="sign-in-actions">
        <button type="button" className="button button-primary" data-testid="sign-in-open" onClick={() => onDecide(true)}>
          <LogIn size={14} aria-hidden /> {t("signIn.open")}
        </button>
        <button type="button" className="button" data-testid="sign-in-cancel" onClick={() => onDecide(false)}>
          {t("common:cancel")}
        </button>
      </div>
    </div>
  );
}
