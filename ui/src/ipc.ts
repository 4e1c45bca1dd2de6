// Every call into the Rust side of the app goes through this module. Commands reject with a
// user-readable string; `errorMessage` turns whatever was thrown into words to show.
import { Channel, invoke } from "@tauri-apps/api/core";
import type { AppEvent } from "./bindings/AppEvent";
import type { Answer } from "./bindings/Answer";
import type { AuthReport } from "./bindings/AuthReport";
import type { ConnectionInfo } from "./bindings/ConnectionInfo";
import type { Decision } from "./bindings/Decision";
import type { HostSettings } from "./bindings/HostSettings";
import type { PendingAsk } from "./bindings/PendingAsk";
import type { Root } from "./bindings/Root";
import type { UrlAnalysis } from "./bindings/UrlAnalysis";
import type { UrlDecision } from "./bindings/UrlDecision";
import type { FrameDetail } from "./bindings/FrameDetail";
import type { FrameRow } from "./bindings/FrameRow";
import type { HttpExchange } from "./bindings/HttpExchange";
import type { ServerEntry } from "./bindings/ServerEntry";
import type { ServerIdentity } from "./bindings/ServerIdentity";
import type { StderrLine } from "./bindings/StderrLine";
import type { JsonValue } from "./bindings/serde_json/JsonValue";

/** What `list_items` can list. */
export type ListKind = "tools" | "resources" | "resource_templates" | "prompts";

export type JsonObject = { [key: string]: JsonValue };

/** Turns a rejection (a string from Rust, an Error from the JS side) into a sentence. */
export function errorMessage(error: unknown): string {
  if (typeof error === "string") return error || "unknown error";
  if (error instanceof Error) return error.message || error.name;
  if (error && typeof error === "object" && "message" in error) {
    const message = (error as { message: unknown }).message;
    if (typeof message === "string") return message;
  }
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/** True when the page runs inside the Tauri webview (and so can call the Rust side). */
export function hasTauri(): boolean {
  return typeof window !== "undefined" && "__TAURI_INTERNALS__" in window;
}

export const ipc = {
  catalogList: () => invoke<ServerEntry[]>("catalog_list"),
  catalogSave: (entry: ServerEntry) => invoke<ServerEntry[]>("catalog_save", { entry }),
  catalogRemove: (id: string) => invoke<ServerEntry[]>("catalog_remove", { id }),

  /** Subscribes once; `onEvents` receives every batch the app pushes. */
  subscribeEvents: (onEvents: (events: AppEvent[]) => void): Promise<void> => {
    const channel = new Channel<AppEvent[]>();
    channel.onmessage = onEvents;
    return invoke<void>("subscribe_events", { onEvents: channel });
  },

  connections: () => invoke<ConnectionInfo[]>("connections"),
  connect: (serverId: string) => invoke<ServerIdentity>("connect", { serverId }),
  disconnect: (serverId: string) => invoke<void>("disconnect", { serverId }),

  listItems: (serverId: string, kind: ListKind) =>
    invoke<JsonValue[]>("list_items", { serverId, kind }),
  /** With a call id, progress arrives as `call_progress` events and `cancel_call` can stop it. */
  callTool: (serverId: string, name: string, args: JsonObject, callId?: string) =>
    invoke<JsonValue>("call_tool", { serverId, name, arguments: args, callId: callId ?? null }),
  readResource: (serverId: string, uri: string) =>
    invoke<JsonValue>("read_resource", { serverId, uri }),
  getPrompt: (serverId: string, name: string, args: Record<string, string>) =>
    invoke<JsonValue>("get_prompt", { serverId, name, arguments: args }),

  trafficRows: (serverId: string, from: number, count: number) =>
    invoke<FrameRow[]>("traffic_rows", { serverId, from, count }),
  frameDetail: (serverId: string, seq: number) =>
    invoke<FrameDetail>("frame_detail", { serverId, seq }),
  stderrLines: (serverId: string) => invoke<StderrLine[]>("stderr_lines", { serverId }),
  httpExchanges: (serverId: string) => invoke<HttpExchange[]>("http_exchanges", { serverId }),

  pendingAsks: () => invoke<PendingAsk[]>("pending_asks"),
  answerAsk: (askId: number, answer: Answer) => invoke<void>("answer_ask", { askId, answer }),
  analyzeUrl: (serverId: string, url: string) => invoke<UrlAnalysis>("analyze_url", { serverId, url }),
  consentUrl: (serverId: string, url: string, elicitationId: string, decision: UrlDecision) =>
    invoke<void>("consent_url", { serverId, url, elicitationId, decision }),
  hostSettings: (serverId: string) => invoke<HostSettings>("host_settings", { serverId }),
  saveHostSettings: (serverId: string, settings: HostSettings) =>
    invoke<void>("save_host_settings", { serverId, settings }),
  rootOfPath: (path: string) => invoke<Root>("root_of_path", { path }),
  pickFolder: () => invoke<Root | null>("pick_folder"),
  decisions: (serverId: string) => invoke<Decision[]>("decisions", { serverId }),

  oauthReport: (serverId: string) => invoke<AuthReport | null>("oauth_report", { serverId }),
  signOut: (serverId: string) => invoke<void>("sign_out", { serverId }),
  setClientSecret: (serverId: string, secret: string | null) =>
    invoke<void>("set_client_secret", { serverId, secret }),
  hasClientSecret: (serverId: string) => invoke<boolean>("has_client_secret", { serverId }),
};
