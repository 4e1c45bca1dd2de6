// The last arguments of each tool, so a tool's form opens as the user left it, across restarts.
// Kept by the Rust side in remembered.json (bounded, owner-only); the UI reads them once at start
// (`loadRemembered`) into this cache, so reading is synchronous, and writes each change back a
// moment after the typing stops. Values over 256 KB are not kept.
import type { RememberedArgs } from "../bindings/RememberedArgs";
import type { JsonValue } from "../bindings/serde_json/JsonValue";

const MAX_CHARS = 256 * 1024;
/** Typing in a form changes the arguments at every key; the file is written after a pause. */
const WRITE_AFTER_MS = 400;
/** Where an older Periscope kept them (the web view's storage); moved once, then removed. */
const OLD_PREFIX = "periscope.toolArgs.v1:";

type Writer = (entry: RememberedArgs) => Promise<void>;

const cache = new Map<string, JsonValue>();
const pending = new Map<string, ReturnType<typeof setTimeout>>();
let writer: Writer | null = null;

const keyOf = (serverId: string, tool: string) => JSON.stringify([serverId, tool]);

export function loadArgs(serverId: string, tool: string): JsonValue | undefined {
  return cache.get(keyOf(serverId, tool));
}

export function saveArgs(serverId: string, tool: string, args: JsonValue): void {
  const key = keyOf(serverId, tool);
  let text: string;
  try {
    text = JSON.stringify(args);
  } catch {
    return;
  }
  const kept = text.length <= MAX_CHARS;
  if (kept) cache.set(key, args);
  else cache.delete(key);
  const write = writer;
  if (!write) return;
  clearTimeout(pending.get(key));
  pending.set(
    key,
    setTimeout(() => {
      pending.delete(key);
      // The Rust side forgets arguments that are too big; a failed write only costs the memory.
      void write({ server_id: serverId, tool, args: kept ? args : {} }).catch(() => undefined);
    }, WRITE_AFTER_MS),
  );
}

/**
 * Fills the cache from the stored entries and sends later changes through `write`. Arguments an
 * older Periscope left in the web view's storage are moved over (stored ones win) and removed.
 */
export function loadRemembered(stored: RememberedArgs[], write: Writer): void {
  for (const entry of stored) cache.set(keyOf(entry.server_id, entry.tool), entry.args);
  writer = write;
  for (const [serverId, tool, args] of oldEntries()) {
    if (!cache.has(keyOf(serverId, tool))) {
      cache.set(keyOf(serverId, tool), args);
      void write({ server_id: serverId, tool, args }).catch(() => undefined);
    }
  }
}

/** For tests: forget everything, writer included. */
export function resetRemembered(): void {
  cache.clear();
  for (const timer of pending.values()) clearTimeout(timer);
  pending.clear();
  writer = null;
}

function oldEntries(): [string, string, JsonValue][] {
  let store: Storage;
  try {
    if (typeof localStorage === "undefined") return [];
    store = localStorage;
  } catch {
    return [];
  }
  const found: [string, string, JsonValue][] = [];
  for (const key of Object.keys(store)) {
    if (!key.startsWith(OLD_PREFIX)) continue;
    try {
      const [serverId, tool] = JSON.parse(key.slice(OLD_PREFIX.length)) as [string, string];
      const args = JSON.parse(store.getItem(key) ?? "null") as JsonValue;
      if (typeof serverId === "string" && typeof tool === "string") found.push([serverId, tool, args]);
    } catch {
      // Garbage under our prefix: dropped with the rest.
    }
    store.removeItem(key);
  }
  return found;
}
