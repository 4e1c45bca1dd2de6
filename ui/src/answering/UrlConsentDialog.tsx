import { AlertTriangle, Check, Copy, ExternalLink, Globe, ShieldCheck } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
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
  const { t } = useTranslation(["answering", "common"]);
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
      setCopy({ kind: "error", message: t("url.copyFailed", { error: errorMessage(error) }) });
    }
  };

  const blockedReason =
    warnings.find((w) => w.kind === "unsupported_scheme" || w.kind === "unparseable")?.message ??
    t("url.onlyHttp");

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
          <Trans
            t={t}
            i18nKey="url.title"
            values={{ server: serverName }}
            components={{ server: <span className="host-server" /> }}
          />
        </h2>
      </header>
      <p className="host-message" id={`${ids}-message`}>
        {message}
      </p>

      <div className="url-host-box">
        <div className="block-label">{t("url.goesTo")}</div>
        {host ? (
          <div className="url-host" data-testid="url-host">
            {host}
          </div>
        ) : (
          <div className="url-host url-host-missing" data-testid="url-host">
            {t("url.noHost")}
          </div>
        )}
        {hostDiffers && analysis.host_ascii !== "" && (
          <dl className="facts compact url-host-forms">
            <dt>{t("url.readsAs")}</dt>
            <dd className="mono" data-testid="url-host-unicode">
              {analysis.host_unicode}
            </dd>
            <dt>{t("url.dnsForm")}</dt>
            <dd className="mono" data-testid="url-host-ascii">
              {analysis.host_ascii}
            </dd>
          </dl>
        )}
      </div>

      <div className="url-full-box">
        <div className="block-label">{t("url.fullUrl")}</div>
        <FullUrl url={url} analysis={analysis} />
      </div>

      {warnings.length > 0 ? (
        <div className="warning-box url-warnings" role="alert">
          <div className="warning-box-title">
            {t("url.warnings", { count: warnings.length })}
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
          {t("url.noWarnings")}
        </p>
      )}

      <p className="host-hint">{t("url.nothingFetched")}</p>

      {!analysis.openable && (
        <p className="url-blocked" data-testid="url-open-reason">
          {t("url.cannotOpen", { reason: blockedReason })}
        </p>
      )}
      {confirming && (
        <p className="url-confirm" role="status">
          {t("url.confirm")}
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
          {confirming ? t("url.openAnyway") : t("url.open")}
        </button>
        <button type="button" className="button" data-testid="url-copy" onClick={() => void copyUrl()}>
          {copy.kind === "copied" ? <Check size={14} aria-hidden /> : <Copy size={14} aria-hidden />}
          {copy.kind === "copied" ? t("common:copied") : t("url.copy")}
        </button>
        <button type="button" className="button" data-testid="url-accept-only" onClick={() => onDecide("accept_without_opening")}>
          {t("url.acceptOnly")}
        </button>
        <span className="spacer" />
        <button type="button" className="button" data-testid="url-decline" onClick={() => onDecide("decline")}>
          {t("common:decline")}
        </button>
        <button type="button" className="button" data-testid="url-cancel" onClick={() => onDecide("cancel")}>
          {t("common:cancel")}
        </button>
      </div>
      {copy.kind === "error" && <p className="inline-error">{copy.message}</p>}
      <p className="host-hint">{t("url.hint")}</p>
    </section>
  );
}
