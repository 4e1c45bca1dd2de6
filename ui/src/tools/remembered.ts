// The last arguments of each tool, kept in localStorage so they survive tab switches and app
// restarts. Keyed by server id and tool name; values over 256 KB are not kept.
import type { JsonValue } from "../bindings/serde_json/JsonValue";

const PREFIX = "periscope.toolArgs.v1:";
const MAX_CHARS = 256 * 1024;

const keyOf = (serverId: string, tool: string) => `${PREFIX}${JSON.stringify([serverId, tool])}`;

function storage(): Storage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null;
  }
}

export function loadArgs(serverId: string, tool: string): JsonValue | undefined {
  const text = storage()?.getItem(keyOf(serverId, tool));
  if (text === null || text === undefined) return undefined;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

export function saveArgs(serverId: string, tool: string, args: JsonValue): void {
  const store = storage();
  if (!store) return;
  try {
    const text = JSON.stringify(args);
    if (text.length > MAX_CHARS) store.removeItem(keyOf(serverId, tool));
    else store.setItem(keyOf(serverId, tool), text);
  } catch {
    // Storage full or unavailable: the arguments are simply not remembered.
  }
}
