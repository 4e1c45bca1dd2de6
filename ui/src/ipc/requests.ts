// What the user asks of a server: lists, tool calls, resource reads, prompt gets, completions.
import { invoke } from "@tauri-apps/api/core";
import type { Completion } from "../bindings/Completion";
import type { CompletionRef } from "../bindings/CompletionRef";
import type { Diagnosis } from "../bindings/Diagnosis";
import type { ListedViews } from "../bindings/ListedViews";
import type { ViewPage } from "../bindings/ViewPage";
import type { PromptResultView } from "../bindings/PromptResultView";
import type { ResourceReadView } from "../bindings/ResourceReadView";
import type { SchemaReport } from "../bindings/SchemaReport";
import type { TemplateExpansion } from "../bindings/TemplateExpansion";
import type { ToolCallResult } from "../bindings/ToolCallResult";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import type { JsonObject, ListKind, PagedKind } from "./types";

export const requestsIpc = {
  listItems: (serverId: string, kind: ListKind) => invoke<ListedViews>("list_items", { serverId, kind }),
  /** Accepts a tool that changed since it was pinned, as the server lists it now. */
  acceptToolChange: (serverId: string, name: string) => invoke<null>("accept_tool_change", { serverId, name }),
  /**
   * With a call id, progress arrives as `call_progress` events and `cancel_call` can stop it.
   * A result the server made a task comes with that task, which the app follows (`task` events).
   */
  callTool: (serverId: string, name: string, args: JsonObject, callId?: string) =>
    invoke<ToolCallResult>("call_tool", { serverId, name, arguments: args, callId: callId ?? null }),
  /** What the connection doctor says of a tool's `isError` result (nothing for another). */
  diagnoseToolResult: (serverId: string, result: JsonValue) =>
    invoke<Diagnosis[]>("diagnose_tool_result", { serverId, result }),
  /** Each result read by the engine, with the JSON as sent in its `raw`. */
  readResource: (serverId: string, uri: string) =>
    invoke<ResourceReadView>("read_resource", { serverId, uri }).then((read) => read.result),
  /** The read with its caching hints (how long it stays fresh, whether it came from the cache). */
  readResourceCached: (serverId: string, uri: string) => invoke<ResourceReadView>("read_resource", { serverId, uri }),
  getPrompt: (serverId: string, name: string, args: Record<string, string>) =>
    invoke<PromptResultView>("get_prompt", { serverId, name, arguments: args }),
};

/** The Tools tab's own commands. */
export const toolsIpc = {
  /** Checks `instance` against `schema` in Rust (the page may not compile code: no Ajv). */
  validateJson: (schema: JsonValue, instance: JsonValue) =>
    invoke<SchemaReport>("validate_json", { schema, instance }),
  /** Cancels a call started with this call id; false when it had already ended. */
  cancelCall: (serverId: string, callId: string) => invoke<boolean>("cancel_call", { serverId, callId }),
};

/** Resources and prompts in depth: paging, completion, subscriptions, saving a blob. */
export const resourcesIpc = {
  /** One page: the first with `cursor` null, the next with the last page's `next_cursor`. */
  listPage: (serverId: string, kind: PagedKind, cursor: string | null) =>
    invoke<ViewPage>("list_page", { serverId, kind, cursor }),
  complete: (
    serverId: string,
    reference: CompletionRef,
    argument: string,
    value: string,
    context: Record<string, string> | null,
  ) => invoke<Completion>("complete", { serverId, reference, argument, value, context }),
  /** A template's variables and the URI these values make (RFC 6570, expanded in the engine). */
  fillTemplate: (template: string, values: Record<string, string>) =>
    invoke<TemplateExpansion>("fill_resource_template", { template, values }),
  subscribe: (serverId: string, uri: string) => invoke<void>("subscribe_resource", { serverId, uri }),
  unsubscribe: (serverId: string, uri: string) => invoke<void>("unsubscribe_resource", { serverId, uri }),
  /** Opens the native save dialog; resolves to the path written, or null when cancelled. */
  saveBlob: (uri: string, blob: string) => invoke<string | null>("save_blob", { uri, blob }),
};
