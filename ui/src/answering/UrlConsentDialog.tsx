import { AlertTriangle, Check, Copy, ExternalLink, Globe, ShieldCheck } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import type { UrlAnalysis } from "../bindings/UrlAnalysis";
import type { UrlDecision } from "../bindings/UrlDecision";
import { copyText } from "../common/clipboard";
import { errorMessage } from "../ipc";
import { splitAtHost } from "./url";
import "../styles/answering.css";

interface Props {
  serverName: string;
  message: string;
  url: string;
  analysis: UrlAnalysis;
  onDecide: (decision: UrlDecision) => void;
}

/** The URL as the server sent it, its host emphasised; plain when the host cannot be found in it. */
function FullUrl({ url, analysis }: { url: string; analysis: UrlAnalysis }) {
  const split = splitAtHost(url, [analysis.host_ascii, analysis.host_unicode]);
  return (
    <div className="url-full mono" data-testid="url-full">
      {split ? (
        <>
          {split.before}
          <mark className="url-full-host">{split.host}</mark>
          {split.after}
        </>
      ) : (
        url
      )}
    </div>
  );
}

type CopyState = { kind: "idle" | "copied" } | { kind: "error"; message: string };

/**
 * Consent for a URL-mode elicitation: a server asks the user to open a web page. Shows where the
 * link really goes (the host, in both its readable and DNS forms), what looks wrong with it,
 * and opens nothing unless the user says so; with warnings, opening takes a second click.
 */
export function UrlConsentDialog({ serverName, message, url, analysis, onDecide }: Props) {
  const ids = useId();
  const [confirming, setConfirming] = useState(false);
  const [copy, setCopy] = useState<CopyState>({ kind: "idle" });
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const warnings = analysis.warnings;
  const hostDiffers = analysis.host_unicode !== analysis.host_ascii;
  const host = analysis.host_unicode || analysis.host_ascii;

  const open = () => {
    if (!analysis.openable) return;
    if (warnings.length > 0 && !confirming) {
      setConfirming(true);
      return;
    }
    onDecide("open");
  };

  const copyUrl = async () => {
    window.clearTimeout(timer.current);
    try {
      await copyText(url);
      setCopy({ kind: "copied" });
      timer.current = window.setTimeout(() => setCopy({ kind: "idle" }), 1500);
    } catch (error) {
      setCopy({ kind: "error", message: `Copy failed: ${errorMessage(error)}` });
    }
  };

  const blockedReason =
    warnings.find((w) => w.kind === "unsupported_scheme" || w.kind === "unparseable")?.message ??
    "Only http and https links that parse can be opened.";

  return (
    <section
      className="host-card url-consent"
      data-testid="url-consent"
      role="dialog"
      aria-labelledby={`${ids}-title`}
      aria-describedby={`${ids}-message`}
      onKeyDown={(event) => {
        if (event.key === "Escape") {
          event.stopPropagation();
          onDecide("cancel");
        }
      }}
    >
      <header className="host-card-header">
        <Globe size={16} aria-hidden className="host-card-icon" />
        <h2 id={`${ids}-title`}>
          <span className="host-server">{serverName}</span> asks you to open a web page
        </h2>
      </header>
      <p className="host-message" id={`${ids}-message`}>
        {message}
      </p>

      <div className="url-host-box">
        <div className="block-label">The link goes to</div>
        {host ? (
          <div className="url-host" data-testid="url-host">
            {host}
          </div>
        ) : (
          <div className="url-host url-host-missing" data-testid="url-host">
            (no host)
          </div>
        )}
        {hostDiffers && analysis.host_ascii !== "" && (
          <dl className="facts compact url-host-forms">
            <dt>reads as</dt>
            <dd className="mono" data-testid="url-host-unicode">
              {analysis.host_unicode}
            </dd>
            <dt>actual (DNS) form</dt>
            <dd className="mono" data-testid="url-host-ascii">
              {analysis.host_ascii}
            </dd>
          </dl>
        )}
      </div>

      <div className="url-full-box">
        <div className="block-label">Full URL</div>
        <FullUrl url={url} analysis={analysis} />
      </div>

      {warnings.length > 0 ? (
        <div className="warning-box url-warnings" role="alert">
          <div className="warning-box-title">
            {warnings.length === 1 ? "1 warning" : `${warnings.length} warnings`} about this link
          </div>
          <ul>
            {warnings.map((warning, index) => (
              <li key={`${warning.kind}-${index}`} data-testid="url-warning" data-kind={warning.kind}>
                <AlertTriangle size={14} aria-hidden className="url-warning-icon" />
                <span>{warning.message}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="url-no-warnings muted" data-testid="url-no-warnings">
          <ShieldCheck size={14} aria-hidden />
          No warnings found. Check the host before you continue.
        </p>
      )}

      <p className="host-hint">Nothing has been fetched. The page opens in your system browser only if you click Open.</p>

      {!analysis.openable && (
        <p className="url-blocked" data-testid="url-open-reason">
          This link cannot be opened: {blockedReason}
        </p>
      )}
      {confirming && (
        <p className="url-confirm" role="status">
          This link has warnings. Click Open anyway to open it in your browser regardless.
        </p>
      )}

      <div className="host-actions">
        <button
          type="button"
          className={`button ${confirming ? "button-danger" : "button-primary"}`}
          data-testid="url-open"
          data-confirming={confirming || undefined}
          disabled={!analysis.openable}
          onClick={open}
        >
          <ExternalLink size={14} aria-hidden />
          {confirming ? "Open anyway" : "Open in browser"}
        </button>
        <button type="button" className="button" data-testid="url-copy" onClick={() => void copyUrl()}>
          {copy.kind === "copied" ? <Check size={14} aria-hidden /> : <Copy size={14} aria-hidden />}
          {copy.kind === "copied" ? "Copied" : "Copy URL"}
        </button>
        <button type="button" className="button" data-testid="url-accept-only" onClick={() => onDecide("accept_without_opening")}>
          Accept without opening
        </button>
        <span className="spacer" />
        <button type="button" className="button" data-testid="url-decline" onClick={() => onDecide("decline")}>
          Decline
        </button>
        <button type="button" className="button" data-testid="url-cancel" onClick={() => onDecide("cancel")}>
          Cancel
        </button>
      </div>
      {copy.kind === "error" && <p className="inline-error">{copy.message}</p>}
      <p className="host-hint">
        Accept without opening tells the server you agree but opens nothing. Decline says no. Cancel dismisses the request
        without choosing.
      </p>
    </section>
  );
}
