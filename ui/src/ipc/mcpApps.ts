// MCP Apps: a server's UI resources rendered in a sandboxed frame. The protocol (the app's
// JSON-RPC, its consent rules, the recording) is the Rust side's; these commands open a view,
// relay what the frame posts, and tell the view what the host did (tool result, context, close).
import { Channel, invoke } from "@tauri-apps/api/core";
import type { JsonValue } from "../bindings/serde_json/JsonValue";

// Types of the contract (contract-13-apps.md §3), declared here until the generated bindings
// land. Kept structurally identical to what ts-rs writes, so switching is an import change.
export type McpAppDisplayMode = "inline" | "fullscreen";

export type McpAppSource =
  | { kind: "tool_call"; tool: string; arguments: JsonValue }
  | { kind: "manual"; tool: string | null; input: JsonValue; result: JsonValue | null }
  | { kind: "resource" };

export interface McpAppCsp {
  header: string;
  external: string[];
  dropped: string[];
}

export interface McpAppOpened {
  view: number;
  src: string;
  title: string;
  prefers_border: boolean;
  csp: McpAppCsp;
  problems: string[];
  sha256: string;
}

export type McpAppOut =
  | { kind: "post"; text: string }
  | { kind: "resize"; width: number | null; height: number | null }
  | { kind: "display_mode"; mode: McpAppDisplayMode }
  | { kind: "closed"; reason: string };

export interface McpAppContextChange {
  theme: string | null;
  display_mode: McpAppDisplayMode | null;
  width: number | null;
  height: number | null;
}

export interface McpAppTool {
  name: string;
  model_visible: boolean;
  app_visible: boolean;
}

export interface McpAppResource {
  uri: string;
  name: string | null;
  title: string | null;
  mime_type: string | null;
  tools: McpAppTool[];
  listed: boolean;
}

export interface McpAppLabel {
  view: number;
  server_id: string;
  title: string;
  resource_uri: string;
}

export const mcpAppsIpc = {
  open: (serverId: string, resourceUri: string, source: McpAppSource, onOut: (out: McpAppOut) => void) => {
    const channel = new Channel<McpAppOut>();
    channel.onmessage = onOut;
    return invoke<McpAppOpened>("mcp_app_open", { serverId, resourceUri, source, onOut: channel });
  },
  fromView: (view: number, text: string) => invoke<void>("mcp_app_from_view", { view, text }),
  context: (view: number, change: McpAppContextChange) => invoke<void>("mcp_app_context", { view, change }),
  toolResult: (view: number, result: JsonValue) => invoke<void>("mcp_app_tool_result", { view, result }),
  toolCancelled: (view: number, reason: string) => invoke<void>("mcp_app_tool_cancelled", { view, reason }),
  close: (view: number, reason: string) => invoke<void>("mcp_app_close", { view, reason }),
  resources: (serverId: string) => invoke<McpAppResource[]>("mcp_app_resources", { serverId }),
};
