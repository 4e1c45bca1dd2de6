// The server's Apps tab: every UI resource (listed in resources/list or named by a tool), the
// tools that link to it (app-only ones badged), and a test bench: open the resource with a
// hand-written tool input and result, without calling the tool.
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { ConnectButton } from "../common/ConnectButton";
import { EmptyState } from "../common/EmptyState";
import { ErrorBox } from "../common/ErrorBox";
import { RefreshButton } from "../common/RefreshButton";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import type { McpAppResource } from "../ipc/mcpApps";
import type { ServerState } from "../state/connections";
import { JsonEditor } from "../tools/JsonEditor";
import { McpAppPanel } from "./McpAppPanel";
import { useMcpAppResources } from "./useMcpAppResources";
import { useMcpAppView } from "./useMcpAppView";
import "../styles/mcpApps.css";

export function McpAppsView({ server }: { server: ServerState }) {
  const { t } = useTranslation("mcpApps");
  if (server.status.state !== "ready") {
    return (
      <EmptyState title={t("view.notConnected")} action={<ConnectButton server={server} />} testId="list-gate">
        {t("view.connectFirst")}
      </EmptyState>
    );
  }
  return <McpAppsList server={server} />;
}

function McpAppsList({ server }: { server: ServerState }) {
  const { t } = useTranslation("mcpApps");
  const [version, setVersion] = useState(0);
  const apps = useMcpAppResources(server.id, true, `${server.session}/${version}`);
  const [picked, setPicked] = useState<string | null>(null);
  // Resources looked at in this tab stay mounted (hidden when not selected): their open apps
  // keep running while another one is looked at, side by side as a host would have them.
  const [visited, setVisited] = useState<readonly string[]>([]);
  const selected = apps.resources.find((r) => r.uri === picked) ?? apps.resources[0] ?? null;
  const mounted = apps.resources.filter((r) => r.uri === selected?.uri || visited.includes(r.uri));
  const pick = (uri: string) => {
    setPicked(uri);
    const keep = selected ? [selected.uri, uri] : [uri];
    setVisited((v) => [...v, ...keep.filter((u) => !v.includes(u))]);
  };
  return (
    <div className="split">
      <div className="split-list">
        <div className="list-header">
          <span className="list-title">{t("view.title")}</span>
          {apps.status === "loaded" && <span className="count">{apps.resources.length}</span>}
          <span className="spacer" />
          <RefreshButton onClick={() => setVersion((v) => v + 1)} busy={apps.status === "loading"} label={t("view.refresh")} />
        </div>
        {apps.error && <ErrorBox title={t("view.listError")} message={apps.error} />}
        {apps.status === "loading" && apps.resources.length === 0 && <EmptyState>{t("view.loading")}</EmptyState>}
        {apps.status === "loaded" && apps.resources.length === 0 && (
          <EmptyState title={t("view.emptyTitle")} testId="mcp-apps-empty">
            {t("view.empty")}
          </EmptyState>
        )}
        <ul className="item-list" aria-label={t("view.title")}>
          {apps.resources.map((r) => (
            <li key={r.uri}>
              <button
                type="button"
                className={`item${selected?.uri === r.uri ? " selected" : ""}`}
                data-testid="mcp-app-resource"
                data-uri={r.uri}
                aria-current={selected?.uri === r.uri ? "true" : undefined}
                onClick={() => pick(r.uri)}
              >
                <span className="item-name">{r.title ?? r.name ?? r.uri}</span>
                <span className="item-sub mono">{r.uri}</span>
              </button>
            </li>
          ))}
        </ul>
      </div>
      <div className="split-detail scroll-area">
        {mounted.map((r) => (
          <div key={r.uri} hidden={r.uri !== selected?.uri}>
            <ResourceDetail serverId={server.id} resource={r} />
          </div>
        ))}
      </div>
    </div>
  );
}

/** JSON text as a value; undefined when it does not parse. */
function parse(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

function ResourceDetail({ serverId, resource }: { serverId: string; resource: McpAppResource }) {
  const { t } = useTranslation("mcpApps");
  const view = useMcpAppView(serverId, resource.uri);
  const [tool, setTool] = useState<string>(resource.tools[0]?.name ?? "");
  const [input, setInput] = useState("{}");
  const [result, setResult] = useState("");
  const parsedInput = useMemo(() => parse(input), [input]);
  const parsedResult = useMemo(() => (result.trim() === "" ? null : parse(result)), [result]);
  const valid = parsedInput !== undefined && parsedResult !== undefined;
  const openManual = () => {
    if (parsedInput === undefined || parsedResult === undefined) return;
    void view.open({ kind: "manual", tool: tool === "" ? null : tool, input: parsedInput, result: parsedResult });
  };
  return (
    <div className="detail" data-testid="mcp-app-resource-detail" data-uri={resource.uri}>
      <h2 className="detail-title">
        <span>{resource.title ?? resource.name ?? resource.uri}</span>
      </h2>
      <dl className="facts compact">
        <dt>{t("view.uri")}</dt>
        <dd className="mono">{resource.uri}</dd>
        <dt>{t("view.mime")}</dt>
        <dd className="mono">{resource.mime_type ?? t("view.unknown")}</dd>
        <dt>{t("view.listed")}</dt>
        <dd>{resource.listed ? t("view.listedYes") : t("view.listedNo")}</dd>
        <dt>{t("view.tools")}</dt>
        <dd data-testid="mcp-app-tools">
          {resource.tools.length === 0 && <span className="muted">{t("view.noTools")}</span>}
          {resource.tools.map((tl) => (
            <span key={tl.name} className="mcp-app-tool" data-tool={tl.name}>
              <span className="mono">{tl.name}</span>
              {tl.app_visible && !tl.model_visible && (
                <span className="badge" data-testid="mcp-app-only" title={t("view.appOnlyHint")}>
                  {t("view.appOnly")}
                </span>
              )}
              {!tl.app_visible && (
                <span className="badge" title={t("view.modelOnlyHint")}>
                  {t("view.modelOnly")}
                </span>
              )}
            </span>
          ))}
        </dd>
      </dl>
      <section className="section mcp-app-manual">
        <h3>{t("manual.title")}</h3>
        <p className="muted small">{t("manual.hint")}</p>
        <label className="field">
          <span>{t("manual.tool")}</span>
          <select data-testid="mcp-app-manual-tool" value={tool} onChange={(e) => setTool(e.target.value)}>
            <option value="">{t("manual.noTool")}</option>
            {resource.tools.map((tl) => (
              <option key={tl.name} value={tl.name}>
                {tl.name}
              </option>
            ))}
          </select>
        </label>
        <div className="field" data-testid="mcp-app-manual-input">
          <span>{t("manual.input")}</span>
          <JsonEditor value={input} onChange={setInput} ariaLabel={t("manual.input")} />
        </div>
        <div className="field" data-testid="mcp-app-manual-result">
          <span>{t("manual.result")}</span>
          <JsonEditor value={result} onChange={setResult} ariaLabel={t("manual.result")} placeholder={t("manual.resultPlaceholder")} />
        </div>
        {!valid && <p className="inline-error">{t("manual.invalid")}</p>}
        <button type="button" className="button button-primary" data-testid="mcp-app-open-manual" disabled={!valid} onClick={openManual}>
          {t("manual.open")}
        </button>
      </section>
      {view.phase.kind !== "idle" && <McpAppPanel serverId={serverId} resourceUri={resource.uri} view={view} />}
    </div>
  );
}
