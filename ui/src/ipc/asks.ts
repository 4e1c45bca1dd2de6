// Server requests to the client: asks waiting for the user, URL consent, roots and reply rule,
// the decisions made.
import { invoke } from "@tauri-apps/api/core";
import type { Answer } from "../bindings/Answer";
import type { Decision } from "../bindings/Decision";
import type { HostSettings } from "../bindings/HostSettings";
import type { PendingAsk } from "../bindings/PendingAsk";
import type { Root } from "../bindings/Root";
import type { UrlAnalysis } from "../bindings/UrlAnalysis";
import type { UrlDecision } from "../bindings/UrlDecision";

export const asksIpc = {
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
};
