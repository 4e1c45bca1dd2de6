// MCP Apps: a server's UI resources rendered in a sandboxed frame. The protocol (the app's
// JSON-RPC, its consent rules, the recording) is the Rust side's; these commands open a view,
// relay what the frame posts, and tell the view what the host did (tool result, context, close).
import { Channel, invoke } from "@tauri-apps/api/core";
import type { JsonValue } from "../bindings/serde_json/JsonValue";

import type { McpAppContextChange } from "../bindings/McpAppContextChange";
import type { McpAppOpened } from "../bindings/McpAppOpened";
import type { McpAppOut } from "../bindings/McpAppOut";
import type { McpAppResource } from "../bindings/McpAppResource";
import type { McpAppSource } from "../bindings/McpAppSource";

export type { McpAppContextChange, McpAppOpened, McpAppOut, McpAppResource, McpAppSource };
export type { McpAppCsp } from "../bindings/McpAppCsp";
export type { McpAppDisplayMode } from "../bindings/McpAppDisplayMode";
export type { McpAppLabel } from "../bindings/McpAppLabel";
export type { McpAppTool } from "../bindings/McpAppTool";

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
