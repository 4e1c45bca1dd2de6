import { useMemo } from "react";
import { callTool, loadList, selectTool, setToolForm } from "../actions";
import { EmptyState } from "../common/EmptyState";
import { ErrorBox } from "../common/ErrorBox";
import { JsonBlock } from "../common/JsonBlock";
import { ListGate } from "../common/ListGate";
import { ListHeader } from "../common/ListHeader";
import { useLists } from "../common/useLists";
import type { ListKind } from "../ipc";
import type { ServerState } from "../store";
import { ToolForm } from "./ToolForm";
import { ToolList } from "./ToolList";
import { ToolResult } from "./ToolResult";
import { URL_ELICITATION_REQUIRED, UrlElicitationRequired } from "./UrlElicitationRequired";
import { toolInfo, type ToolInfo } from "./tools";

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
  const list = server.lists.tools;
  const tools = useMemo(
    () => list.items.map(toolInfo).filter((t): t is ToolInfo => t !== null),
    [list.items],
  );
  const selected = tools.find((t) => t.name === server.tools.selected) ?? null;
  return (
    <div className="split">
      <div className="split-list">
        <ListHeader title="Tools" list={list} onRefresh={() => void loadList(server.id, "tools")} />
        {list.error && <ErrorBox title="Could not list the tools" message={list.error} />}
        {list.status === "loading" && tools.length === 0 && <EmptyState>Loading…</EmptyState>}
        {list.status === "loaded" && tools.length === 0 && <EmptyState>The server has no tools.</EmptyState>}
        <ToolList tools={tools} selected={server.tools.selected} onSelect={(name) => selectTool(server.id, name)} />
      </div>
      <div className="split-detail scroll-area">
        {selected ? (
          <ToolDetail server={server} tool={selected} />
        ) : (
          <EmptyState>{tools.length > 0 ? "Select a tool to call it." : ""}</EmptyState>
        )}
      </div>
    </div>
  );
}

function ToolDetail({ server, tool }: { server: ServerState; tool: ToolInfo }) {
  const call = server.tools.calls[tool.name];
  return (
    <div className="detail">
      <h2 className="detail-title">
        <span className="mono">{tool.name}</span>
        {tool.title && <span className="detail-subtitle">{tool.title}</span>}
      </h2>
      {tool.hints.length > 0 && (
        <div className="badges">
          {tool.hints.map((h) => (
            <span key={h} className="badge">
              {h}
            </span>
          ))}
        </div>
      )}
      {tool.description && <p className="description">{tool.description}</p>}
      <ToolForm
        key={`${server.id}\u0000${tool.name}`}
        toolName={tool.name}
        inputSchema={tool.inputSchema}
        formData={server.tools.forms[tool.name]}
        running={call?.status === "running"}
        onChange={(data) => setToolForm(server.id, tool.name, data)}
        onCall={(args) => void callTool(server.id, tool.name, args)}
      />
      {call?.rpcError?.code === URL_ELICITATION_REQUIRED && (
        <UrlElicitationRequired
          server={server}
          toolName={tool.name}
          data={call.rpcError.data}
          args={call.rpcError.args}
        />
      )}
      {call && <ToolResult key={tool.name} call={call} />}
      <details className="section">
        <summary>Tool definition (JSON)</summary>
        <JsonBlock value={tool.raw} />
      </details>
    </div>
  );
}
