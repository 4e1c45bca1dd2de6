import { useMemo, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { loadList } from "../actions/lists";
import { selectTool, setTab, setToolForm } from "../actions/view";
import { EmptyListState } from "../common/EmptyListState";
import { EmptyState } from "../common/EmptyState";
import { ErrorBox } from "../common/ErrorBox";
import { JsonBlock } from "../common/JsonBlock";
import { ListGate } from "../common/ListGate";
import { ListFilter } from "../common/ListFilter";
import { ListHeader } from "../common/ListHeader";
import { searchText, useFilteredItems } from "../common/listFilter";
import { useLists } from "../common/useLists";
import { ipc, toolsIpc, type JsonObject, type ListKind } from "../ipc";
import { ToolForm } from "./ToolForm";
import { ToolList } from "./ToolList";
import { RemoteIcons } from "../common/RemoteIcons";
import { ToolChanged } from "./ToolChanged";
import { ToolDiagnoses } from "./ToolDiagnoses";
import { ToolResult } from "./ToolResult";
import { UrlElicitationRequired } from "./UrlElicitationRequired";
import { loadArgs, saveArgs } from "./remembered";
import { hintLabel, toolInfo, type ToolInfo } from "./tools";
import "../styles/tools.css";
import { callTool, markCancelled, startCall, useRunningCall } from "../state/calls";
import { runAsTask } from "../state/tasks";
import type { TaskStart } from "../bindings/TaskStart";
import type { ServerState } from "../state/connections";
import { useServerCalls } from "../state/calls";
import { useServerLists } from "../state/lists";
import { ToolCallApp, type AppRun } from "../mcp-apps/McpAppPanel";
import { resourceOfTool, useMcpAppResources } from "../mcp-apps/useMcpAppResources";
import type { McpAppResource } from "../ipc/mcpApps";
import { NameText } from "../common/NameText";
import { ServerText } from "../common/ServerText";

const KINDS: readonly ListKind[] = ["tools"];

export function ToolsTab({ server }: { server: ServerState }) {
  useLists(server, KINDS);
  return (
    <ListGate server={server} kind="tools" noun="tools">
      <ToolsView server={server} />
    </ListGate>
  );
}

function ToolsView({ server }: { server: ServerState }) {
  const { t } = useTranslation(["tools", "common"]);
  const list = useServerLists(server.id).tools;
  const tools = useMemo(
    () => list.items.map(toolInfo).filter((t): t is ToolInfo => t !== null),
    [list.items],
  );
  const selected = tools.find((tool) => tool.name === server.tools.selected) ?? null;
  const pinChanges = list.pinChanges;
  const changed = useMemo(() => new Set((pinChanges ?? []).map((c) => c.key)), [pinChanges]);
  const selectedChange = (selected && pinChanges?.find((c) => c.key === selected.name)) ?? null;
  const [query, setQuery] = useState("");
  const shown = useFilteredItems(tools, toolText, query);
  // Which resource the picked tool's app panel shows: the engine reads the tools and resources
  // lists for it (requests to the server), so it is asked only once a tool with `ui` meta is
  // picked, and again only when the tools list is fetched again.
  const [appsWanted, setAppsWanted] = useState(false);
  if (!appsWanted && selected && selected.app !== null) setAppsWanted(true);
  const apps = useMcpAppResources(server.id, appsWanted, list.items);
  const refresh = () => void loadList(server.id, "tools");
  return (
    <div className="split">
      <div className="split-list">
        <ListHeader title={t("tab.title")} list={list} onRefresh={refresh} />
        {list.error && <ErrorBox title={t("tab.listError")} message={list.error} />}
        {list.status === "loading" && tools.length === 0 && <EmptyState>{t("common:loading")}</EmptyState>}
        {list.status === "loaded" && tools.length === 0 && (
          <EmptyListState title={t("tab.emptyTitle")} body={t("tab.empty")} testId="tools-empty" onRefresh={refresh} />
        )}
        {tools.length > 0 && (
          <ListFilter
            value={query}
            onChange={setQuery}
            shown={shown.length}
            total={tools.length}
            placeholder={t("tab.filter")}
            testId="tools-filter"
          />
        )}
        <ToolList
          tools={shown}
          selected={server.tools.selected}
          onSelect={(name) => selectTool(server.id, name)}
          changed={changed}
        />
      </div>
      <div className="split-detail scroll-area">
        {selected ? (
          <>
            {selectedChange && <ToolChanged serverId={server.id} change={selectedChange} />}
            <ToolDetail server={server} tool={selected} app={resourceOfTool(apps.resources, selected.name)} />
          </>
        ) : (
          tools.length > 0 && (
            <EmptyState title={t("tab.noSelectionTitle")} testId="no-tool-selected">
              {t("tab.noSelection")}
            </EmptyState>
          )
        )}
      </div>
    </div>
  );
}

/** What the filter box matches in a tool: its name, title and description. */
const toolText = (tool: ToolInfo) => searchText(tool.name, tool.title, tool.description);

function ToolDetail({ server, tool, app }: { server: ServerState; tool: ToolInfo; app: McpAppResource | null }) {
  const { t } = useTranslation("tools");
  const call = useServerCalls(server.id).tools[tool.name];
  const running = useRunningCall(server.id, tool.name);
  // The form's data this session, else what was remembered from an earlier one.
  const remembered = useMemo(() => loadArgs(server.id, tool.name), [server.id, tool.name]);
  const formData = server.tools.forms[tool.name] ?? remembered;
  // The latest Call: when the tool links to an app, its panel opens with these arguments.
  const [appRun, setAppRun] = useState<AppRun | null>(null);
  const onCall = (args: JsonObject) => {
    saveArgs(server.id, tool.name, args);
    const callId = startCall(server.id, tool.name);
    // Kept for every Call: a Call made before the tool's app is known (the UI resources are
    // still being read) gets its panel as soon as it is.
    setAppRun({ id: callId, args, before: call });
    // A call the server makes a task is followed by the app, and comes back saying so.
    void callTool(server.id, tool.name, args, callId);
  };
  const supportsTask = tool.taskSupport === "optional" || tool.taskSupport === "required";
  const [started, setStarted] = useState<TaskStart | null>(null);
  const onCallAsTask = (args: JsonObject) => {
    saveArgs(server.id, tool.name, args);
    setStarted(null);
    // A failure to start is shown in the Tasks tab, with the tasks.
    void runAsTask(server.id, tool.name, args).then((start) => (start === null ? setTab(server.id, "tasks") : setStarted(start)));
  };
  const onCancel = () => {
    const current = markCancelled(server.id, tool.name);
    if (current) void toolsIpc.cancelCall(server.id, current.callId).catch(() => undefined);
  };
  return (
    <div className="detail">
      <h2 className="detail-title">
        {tool.icons[0] && (
          <img
            className="tool-icon"
            src={tool.icons[0].src}
            alt=""
            referrerPolicy="no-referrer"
            data-testid="tool-icon"
          />
        )}
        <span className="mono">
          <NameText name={tool.name} odd={tool.oddLetters} />
        </span>
        {tool.title && (
          <span className="detail-subtitle">
            <ServerText text={tool.title} />
          </span>
        )}
      </h2>
      <ToolClaims tool={tool} />
      {tool.description && (
        <p className="description" data-testid="tool-description">
          <ServerText text={tool.description} />
        </p>
      )}
      <ToolForm
        key={`${server.id}\u0000${tool.name}`}
        toolName={tool.name}
        inputSchema={tool.inputSchema}
        formData={formData}
        running={call?.status === "running"}
        onChange={(data) => {
          setToolForm(server.id, tool.name, data);
          saveArgs(server.id, tool.name, data);
        }}
        onCall={onCall}
        onCallAsTask={supportsTask ? onCallAsTask : undefined}
      />
      {started && <TaskStarted serverId={server.id} start={started} />}
      {call?.status === "done" && call.becameTask && (
        <p className="muted" data-testid="call-became-task">
          <Trans
            t={t}
            i18nKey="tab.becameTask"
            components={{
              tasks: <button type="button" className="link-button" onClick={() => setTab(server.id, "tasks")} />,
            }}
          />
        </p>
      )}
      {call?.rpcError?.urlRequired && (
        <UrlElicitationRequired
          server={server}
          toolName={tool.name}
          needed={call.rpcError.urlRequired}
          args={call.rpcError.args}
        />
      )}
      {!call && !started && (
        <EmptyState title={t("tab.noResultTitle")} testId="no-result">
          {t("tab.noResult")}
        </EmptyState>
      )}
      {call && <ToolDiagnoses serverId={server.id} call={call} />}
      {call && (
        <ToolResult
          key={tool.name}
          call={call}
          running={running}
          outputSchema={tool.outputSchema}
          onCancel={onCancel}
          onRead={(uri) => ipc.readResource(server.id, uri)}
        />
      )}
      {app && appRun && (
        <ToolCallApp
          key={appRun.id}
          serverId={server.id}
          tool={tool.name}
          resourceUri={app.uri}
          run={appRun}
          call={call}
          cancelled={running?.callId === appRun.id && running.cancelled}
        />
      )}
      <details className="section">
        <summary>{t("tab.definition")}</summary>
        <JsonBlock value={tool.raw} />
      </details>
    </div>
  );
}

/** Annotations and icons: what the server says about the tool, which nothing verifies. */
export function ToolClaims({ tool }: { tool: ToolInfo }) {
  const { t } = useTranslation("tools");
  const extraIcons = tool.icons.slice(1);
  if (tool.claims.length === 0 && tool.icons.length === 0 && tool.remoteIcons.length === 0 && !tool.annotationTitle) {
    return null;
  }
  return (
    <div className="tool-claims" data-testid="tool-claims">
      <span className="tool-claims-label" title={t("claims.labelHint")}>
        {t("claims.label")}
      </span>
      {tool.annotationTitle && (
        // eslint-disable-next-line i18next/no-literal-string -- the protocol's field name
        <span className="badge" title="annotations.title">
          {t("claims.title", { title: tool.annotationTitle })}
        </span>
      )}
      {tool.claims.map((claim) => (
        <span
          key={claim.key}
          className={`badge claim${claim.key === "destructiveHint" && claim.value ? " claim-danger" : ""}`}
          title={`${claim.key}: ${String(claim.value)}`}
          data-claim={claim.key}
        >
          {hintLabel(claim)}
        </span>
      ))}
      {extraIcons.map((icon) => (
        <img key={icon.src} className="tool-icon" src={icon.src} alt="" referrerPolicy="no-referrer" />
      ))}
      <RemoteIcons urls={tool.remoteIcons} className="tool-icon" />
      <span className="muted small">{t("claims.unverified")}</span>
    </div>
  );
}

/** What "Run as task" started: a task (followed in the Tasks tab), or the server's answer at once. */
function TaskStarted({ serverId, start }: { serverId: string; start: TaskStart }) {
  const { t } = useTranslation("tools");
  if (start.kind === "result") {
    return (
      <div data-testid="task-answered-at-once">
        <p className="muted">{t("tab.answeredAtOnce")}</p>
        <ToolResult call={{ status: "done", result: start.result, error: null, durationMs: null }} />
      </div>
    );
  }
  return (
    <p className="muted" data-testid="task-started">
      <Trans
        t={t}
        i18nKey="tab.taskStarted"
        values={{ id: start.entry.task.task_id }}
        components={{
          id: <span className="mono" />,
          tasks: <button type="button" className="link-button" onClick={() => setTab(serverId, "tasks")} />,
        }}
      />
    </p>
  );
}
