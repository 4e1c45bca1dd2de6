// A server's UI resources and the tools that link to them, as the engine found them
// (`resources/list` ∪ the tools' `_meta.ui.resourceUri`): which tool shows an app panel.
import { useEffect, useRef, useState } from "react";
import { errorMessage } from "../ipc";
import { mcpAppsIpc, type McpAppResource } from "../ipc/mcpApps";

export interface AppResources {
  status: "idle" | "loading" | "loaded" | "error";
  resources: McpAppResource[];
  error: string | null;
}

const IDLE: AppResources = { status: "idle", resources: [], error: null };

/** The resource a tool's app panel shows, if the tool links to one. */
export function resourceOfTool(resources: readonly McpAppResource[], tool: string): McpAppResource | null {
  return resources.find((r) => r.tools.some((t) => t.name === tool)) ?? null;
}

/**
 * Loads the server's UI resources when `enabled`, again each time `version` changes (the tools
 * list was fetched again). `version` is compared by identity.
 */
export function useMcpAppResources(serverId: string, enabled: boolean, version: unknown): AppResources {
  // The last answer and what it answered; a newer question shows as loading until answered.
  const [answer, setAnswer] = useState<{ serverId: string; version: unknown; state: AppResources } | null>(null);
  // What was last asked: turning `enabled` off and on again does not ask the server again.
  const asked = useRef<{ serverId: string; version: unknown } | null>(null);
  useEffect(() => {
    if (!enabled) return;
    if (asked.current?.serverId === serverId && asked.current.version === version) return;
    asked.current = { serverId, version };
    let live = true;
    const done = (state: AppResources) => live && setAnswer({ serverId, version, state });
    mcpAppsIpc.resources(serverId).then(
      (resources) => done({ status: "loaded", resources, error: null }),
      (e: unknown) => done({ status: "error", resources: [], error: errorMessage(e) }),
    );
    return () => {
      live = false;
      asked.current = null;
    };
  }, [serverId, enabled, version]);
  if (!enabled) return IDLE;
  if (answer?.serverId === serverId && answer.version === version) return answer.state;
  // Loading: the resources known before stay shown meanwhile (same server only).
  const before = answer?.serverId === serverId ? answer.state.resources : [];
  return { status: "loading", resources: before, error: null };
}
