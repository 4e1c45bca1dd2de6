import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { EmptyState } from "../common/EmptyState";
import { JsonBlock } from "../common/JsonBlock";
import { formatLatency } from "../format";
import { asObject, getString, isObject } from "../json";
import { CapabilityList } from "./CapabilityList";
import { Instructions } from "./Instructions";
import { ServerIcons } from "./ServerIcons";
import { ServerUtilities } from "./ServerUtilities";
import type { ServerState } from "../state/connections";
import type { ServerIdentity } from "../bindings/ServerIdentity";

/** Modern or legacy, and how Periscope came to speak it. */
function EraFact({ identity }: { identity: ServerIdentity }) {
  const reason = identity.era_reason;
  const how =
    reason.how === "pinned"
      ? "pinned in the server's settings"
      : reason.how === "discovered"
        ? "found by server/discover"
        : `server/discover failed (${reason.answer}), so Periscope fell back to initialize`;
  return (
    <>
      <span className={`era-badge era-${identity.era}`}>{identity.era === "modern" ? "Modern (no handshake)" : "Legacy (initialize)"}</span>{" "}
      <span className="muted">{how}</span>
    </>
  );
}

/** What the server said about itself: in the handshake (legacy) or in server/discover (modern). */
export function OverviewTab({ server }: { server: ServerState }) {
  const identity = server.identity;
  const status = server.status;
  const protocol = identity?.protocol_version ?? (status.state === "ready" ? status.protocol_version : null);
  if (!identity && !protocol) {
    return (
      <EmptyState>
        {status.state === "connecting"
          ? "Connecting…"
          : "Connect to the server to see what it says about itself."}
      </EmptyState>
    );
  }
  const info = asObject(identity?.server_info);
  return (
    <div className="overview scroll-area">
      {identity && identity.warnings.length > 0 && (
        <section className="warning-box" role="status">
          <div className="warning-box-title">Warnings</div>
          <ul>
            {identity.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </section>
      )}
      <dl className="facts">
        <dt>Server</dt>
        <dd data-testid="overview-server-name">{getString(info, "name") ?? "(no name)"}</dd>
        {getString(info, "title") && (
          <>
            <dt>Title</dt>
            <dd>{getString(info, "title")}</dd>
          </>
        )}
        <dt>Version</dt>
        <dd>{getString(info, "version") ?? "(not given)"}</dd>
        <dt>Protocol revision</dt>
        <dd data-testid="overview-protocol-version" className="mono">
          {protocol}
        </dd>
        {identity && (
          <>
            <dt>Era</dt>
            <dd data-testid="overview-era">
              <EraFact identity={identity} />
            </dd>
            {identity.supported_versions.length > 0 && (
              <>
                <dt>Supported revisions</dt>
                <dd data-testid="overview-supported-versions" className="mono">
                  {identity.supported_versions.join(", ")}
                </dd>
              </>
            )}
            <dt>Transport</dt>
            <dd data-testid="overview-transport">{identity.transport}</dd>
            {server.listen && (
              <>
                <dt>Listen stream</dt>
                <dd data-testid="overview-listen" className={`listen-${server.listen.state}`}>
                  {server.listen.text}
                </dd>
              </>
            )}
            <dt>{identity.era === "modern" ? "server/discover latency" : "Initialize latency"}</dt>
            <dd>{formatLatency(identity.latency_us)}</dd>
          </>
        )}
        <ServerIcons serverInfo={identity?.server_info} />
        {getString(info, "websiteUrl") && (
          <>
            <dt>Website</dt>
            <dd className="mono">{getString(info, "websiteUrl")}</dd>
          </>
        )}
      </dl>
      {!identity && <EmptyState>Loading the server's identity…</EmptyState>}
      {identity && (
        <>
          <ServerUtilities server={server} />
          <section className="section">
            {identity.instructions ? (
              <Instructions text={identity.instructions} />
            ) : (
              <>
                <h3>Instructions</h3>
                <p className="muted">The server gave no instructions.</p>
              </>
            )}
          </section>
          <section className="section">
            <h3>Capabilities</h3>
            {isObject(identity.capabilities) ? (
              <CapabilityList capabilities={identity.capabilities} />
            ) : (
              <JsonBlock value={identity.capabilities} />
            )}
          </section>
          <details className="section">
            <summary>Raw serverInfo and capabilities</summary>
            <JsonBlock value={{ serverInfo: identity.server_info, capabilities: identity.capabilities } satisfies { [k: string]: JsonValue }} />
          </details>
        </>
      )}
    </div>
  );
}
