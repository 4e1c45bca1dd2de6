import { Loader2 } from "lucide-react";
import { useNow } from "../common/useNow";
import { useTranslation } from "react-i18next";
import { connect, reconnectLegacy, reprobeEra } from "../actions/connections";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { EmptyState } from "../common/EmptyState";
import { JsonBlock } from "../common/JsonBlock";
import { formatLatency } from "../format";

import { connectStartedAt, formatDuration, useSignInProgress } from "../oauth/progress";
import { SignInProgress } from "../oauth/SignInProgress";
import { CapabilityList } from "./CapabilityList";
import { Instructions } from "./Instructions";
import { ServerIcons } from "./ServerIcons";
import { ServerUtilities } from "./ServerUtilities";
import { listenText } from "./listenText";
import type { ServerState } from "../state/connections";
import { useServerTraffic } from "../state/traffic";
import { formatNumber } from "../format";
import type { ServerIdentity } from "../bindings/ServerIdentity";
import { offSpecText } from "../i18n/offSpec";
import { probeAnswerText, problemText } from "../i18n/problem";

/** Modern or legacy, and how Periscope came to speak it; a remembered era can be probed again. */
function EraFact({ serverId, identity }: { serverId: string; identity: ServerIdentity }) {
  const { t } = useTranslation(["overview", "common"]);
  const reason = identity.era_reason;
  const how =
    reason.how === "pinned"
      ? t("era.pinned")
      : reason.how === "discovered"
        ? t("era.discovered")
        : reason.how === "remembered"
          ? t("era.remembered")
          : t("era.fellBack", { answer: probeAnswerText(reason.answer) });
  return (
    <>
      <span className={`era-badge era-${identity.era}`}>{identity.era === "modern" ? t("era.modern") : t("era.legacy")}</span>{" "}
      <span className="muted">{how}</span>
      {reason.how === "remembered" && (
        <>
          {" "}
          <button type="button" className="button button-small" data-testid="era-reprobe" onClick={() => void reprobeEra(serverId)}>
            {t("era.reprobe")}
          </button>
        </>
      )}
    </>
  );
}

/** What the protocol checks found in this server's frames so far (details in Traffic). */
function ChecksFact({ serverId }: { serverId: string }) {
  const { t } = useTranslation("overview");
  const { violations, not_checked: notChecked } = useServerTraffic(serverId).summary;
  return (
    <>
      <span className={violations > 0 ? "text-warning" : undefined}>
        {violations > 0 ? t("checks.violations", { count: violations, n: formatNumber(violations) }) : t("checks.none")}
      </span>
      {notChecked > 0 && <span className="muted"> {t("checks.notChecked", { count: notChecked, n: formatNumber(notChecked) })}</span>}
    </>
  );
}

/** What the server said about itself: in the handshake (legacy) or in server/discover (modern). */
export function OverviewTab({ server }: { server: ServerState }) {
  const { t } = useTranslation(["overview", "common"]);
  const identity = server.identity;
  const status = server.status;
  const protocol = identity?.protocol_version ?? (status.state === "ready" ? status.protocol_version : null);
  if (!identity && !protocol) {
    if (status.state === "connecting") return <Connecting serverId={server.id} probeWaiting={server.probeWaiting ?? false} />;
    return (
      <EmptyState
        title={t("empty.notConnected.title")}
        testId="overview-empty"
        action={
          <button type="button" className="button button-primary" onClick={() => void connect(server.id)}>
            {t("common:connect")}
          </button>
        }
      >
        <p>{t("empty.notConnected.body")}</p>
        <p>{t("empty.notConnected.what")}</p>
      </EmptyState>
    );
  }
  // What the engine found off in serverInfo and capabilities (vocabulary/views/server.rs).
  const offSpec = identity ? [...identity.info.problems, ...identity.offers.problems] : [];
  const { name, title, version, website_url: website } = identity?.info ?? { name: null, title: null, version: null, website_url: null };
  return (
    <div className="overview scroll-area">
      {identity && (identity.warnings.length > 0 || offSpec.length > 0) && (
        <section className="warning-box" role="status" data-testid="overview-warnings">
          <div className="warning-box-title">{t("warnings")}</div>
          <ul>
            {identity.warnings.map((w, i) => (
              <li key={i}>{problemText(w)}</li>
            ))}
            {offSpec.map((p, i) => (
              <li key={`off-${i}`}>{t("offSpec", { what: offSpecText(p) })}</li>
            ))}
          </ul>
        </section>
      )}
      <dl className="facts">
        <dt>{t("fact.server")}</dt>
        <dd data-testid="overview-server-name">{name ?? t("fact.noName")}</dd>
        {title && (
          <>
            <dt>{t("fact.title")}</dt>
            <dd>{title}</dd>
          </>
        )}
        <dt>{t("fact.version")}</dt>
        <dd>{version ?? t("fact.notGiven")}</dd>
        <dt>{t("fact.protocol")}</dt>
        <dd data-testid="overview-protocol-version" className="mono">
          {protocol}
        </dd>
        {identity && (
          <>
            <dt>{t("fact.era")}</dt>
            <dd data-testid="overview-era">
              <EraFact serverId={server.id} identity={identity} />
            </dd>
            {identity.supported_versions.length > 0 && (
              <>
                <dt>{t("fact.supported")}</dt>
                <dd data-testid="overview-supported-versions" className="mono">
                  {identity.supported_versions.join(", ")}
                </dd>
              </>
            )}
            <dt>{t("fact.transport")}</dt>
            <dd data-testid="overview-transport">{identity.transport}</dd>
            {server.listen && (
              <>
                <dt>{t("fact.listen")}</dt>
                <dd data-testid="overview-listen" className={`listen-${server.listen.state}`}>
                  {listenText(server.listen)}
                </dd>
              </>
            )}
            <dt>{identity.era === "modern" ? t("fact.discoverLatency") : t("fact.initializeLatency")}</dt>
            <dd>{formatLatency(identity.latency_us)}</dd>
            <dt>{t("fact.checks")}</dt>
            <dd data-testid="overview-checks">
              <ChecksFact serverId={server.id} />
            </dd>
          </>
        )}
        {identity && <ServerIcons icons={identity.info.icons} />}
        {website && (
          <>
            <dt>{t("fact.website")}</dt>
            <dd className="mono">{website}</dd>
          </>
        )}
      </dl>
      {!identity && (
        <EmptyState
          title={
            <>
              <Loader2 size={14} className="spin" aria-hidden /> {t("empty.loadingIdentity")}
            </>
          }
        />
      )}
      {identity && (
        <>
          <ServerUtilities server={server} />
          <section className="section">
            {identity.instructions ? (
              <Instructions text={identity.instructions} />
            ) : (
              <>
                <h3>{t("instructions.title")}</h3>
                <p className="muted" data-testid="no-instructions">
                  {t("instructions.none")} {t("instructions.noneHow")}
                </p>
              </>
            )}
          </section>
          <section className="section">
            <h3>{t("capabilities")}</h3>
            {identity.offers.unknown ? <JsonBlock value={identity.capabilities} /> : <CapabilityList offers={identity.offers} />}
          </section>
          <details className="section">
            <summary>{t("raw")}</summary>
            <JsonBlock value={{ serverInfo: identity.server_info, capabilities: identity.capabilities } satisfies { [k: string]: JsonValue }} />
          </details>
        </>
      )}
    </div>
  );
}

/** While the connection is being made: how long it has taken, and the sign-in's steps if one runs. */
function Connecting({ serverId, probeWaiting }: { serverId: string; probeWaiting: boolean }) {
  const { t } = useTranslation(["overview", "common"]);
  const progress = useSignInProgress(serverId);
  const now = useNow(1000);
  const since = connectStartedAt(serverId);
  return (
    <div className="overview scroll-area">
      <EmptyState
        testId="overview-connecting"
        title={
          <>
            <Loader2 size={14} className="spin" aria-hidden /> {t("empty.connecting.title")}
            {since !== null && (
              <>
                {" "}
                <span className="muted" data-testid="connect-elapsed">
                  {formatDuration(now - since)}
                </span>
              </>
            )}
          </>
        }
      >
        {progress ? t("empty.connecting.signingIn") : t("empty.connecting.body")}
      </EmptyState>
      {probeWaiting && (
        <section className="warning-box" role="status" data-testid="probe-waiting">
          <p>{t("empty.connecting.probe")}</p>
          <button type="button" className="button" data-testid="probe-skip" onClick={() => void reconnectLegacy(serverId)}>
            {t("empty.connecting.probeSkip")}
          </button>
        </section>
      )}
      {progress && <SignInProgress progress={progress} />}
    </div>
  );
}
