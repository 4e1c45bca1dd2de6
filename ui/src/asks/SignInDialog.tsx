// A remote server requires sign-in: show who will be asked (the authorization server's host)
// and for what (the scopes) before the system browser opens.
import { KeyRound, LogIn } from "lucide-react";
import type { AuthorizationPrompt } from "../bindings/AuthorizationPrompt";

export function SignInDialog(props: {
  serverName: string;
  prompt: AuthorizationPrompt;
  onDecide: (proceed: boolean) => void;
}) {
  const { serverName, prompt, onDecide } = props;
  const scopes = prompt.scopes?.split(/\s+/).filter((s) => s !== "") ?? [];
  return (
    <div className="sign-in" data-testid="sign-in">
      <h2 className="sign-in-title">
        <KeyRound size={18} aria-hidden /> <strong>{serverName}</strong> requires you to sign in
      </h2>
      <dl className="sign-in-facts">
        <dt>Authorization server</dt>
        <dd className="sign-in-host" data-testid="sign-in-host">
          {prompt.auth_server_host}
        </dd>
        <dt>Access asked</dt>
        <dd data-testid="sign-in-scopes">
          {scopes.length === 0 ? (
            <span className="muted">no particular scope</span>
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
        <summary>The page that will open</summary>
        <code data-testid="sign-in-url">{prompt.url}</code>
      </details>
      <p className="muted">
        Your system browser opens this page when you click Sign in. Periscope waits on a private
        address on this computer (127.0.0.1) for the answer; no token is shown or logged.
      </p>
      <div className="sign-in-actions">
        <button type="button" className="button button-primary" data-testid="sign-in-open" onClick={() => onDecide(true)}>
          <LogIn size={14} aria-hidden /> Sign in with the browser
        </button>
        <button type="button" className="button" data-testid="sign-in-cancel" onClick={() => onDecide(false)}>
          Cancel
        </button>
      </div>
    </div>
  );
}
