// The Saved tab's logic, apart from React: filtering the history, checking an edit, naming
// copies (a new save's name is `uniqueName` in state/saved.ts). (History entries are made by
// the Rust side, with the engine's timing.)
import type { CallKind } from "../bindings/CallKind";
import type { CallOutcome } from "../bindings/CallOutcome";
import type { HistoryEntry } from "../bindings/HistoryEntry";
import type { SavedCall } from "../bindings/SavedCall";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import type { JsonObject } from "../ipc";
import i18n from "../i18n";
import { isObject, pretty } from "../json";

/** What a history entry says, as one lowercase string to search in. */
function haystack(entry: HistoryEntry): string {
  const result = typeof entry.result_preview === "string" ? entry.result_preview : JSON.stringify(entry.result_preview);
  return [entry.kind, entry.target, entry.outcome.replace("_", " "), JSON.stringify(entry.arguments), result]
    .join("\n")
    .toLowerCase();
}

/**
 * The entries whose name, arguments or result contain every word of `query` (any case).
 * An empty query keeps everything.
 */
export function filterHistory(entries: readonly HistoryEntry[], query: string): HistoryEntry[] {
  const words = query.toLowerCase().split(/\s+/).filter((w) => w !== "");
  if (words.length === 0) return [...entries];
  return entries.filter((entry) => {
    const text = haystack(entry);
    return words.every((w) => text.includes(w));
  });
}

/** The saved calls whose name or target contains `query` (any case). */
export function filterSaved(calls: readonly SavedCall[], query: string): SavedCall[] {
  const q = query.trim().toLowerCase();
  if (q === "") return [...calls];
  return calls.filter((c) => `${c.name}\n${c.target}\n${JSON.stringify(c.arguments)}`.toLowerCase().includes(q));
}

export type Parsed = { args: JsonObject } | { error: string };

/** Arguments typed as JSON: an object; a prompt's values must be strings. */
export function parseArgumentsText(text: string, kind: CallKind): Parsed {
  if (text.trim() === "") return { args: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: i18n.t("saved:edit.notJson", { error: error instanceof Error ? error.message : String(error) }) };
  }
  if (!isObject(value as JsonValue)) return { error: i18n.t("saved:edit.notObject") };
  const args = value as JsonObject;
  if (kind === "prompt") {
    const bad = Object.keys(args).filter((k) => typeof args[k] !== "string");
    if (bad.length > 0) return { error: i18n.t("saved:edit.promptStrings", { names: bad.join(", ") }) };
  }
  if (kind === "resource" && Object.keys(args).length > 0) {
    return { error: i18n.t("saved:edit.resourceNoArgs") };
  }
  return { args };
}

/** Checks an edit of a saved call; returns the changed call or what is wrong. */
export function applyEdit(call: SavedCall, name: string, argsText: string): { call: SavedCall } | { error: string } {
  const trimmed = name.trim();
  if (trimmed === "") return { error: i18n.t("saved:edit.noName") };
  const parsed = parseArgumentsText(argsText, call.kind);
  if ("error" in parsed) return parsed;
  return { call: { ...call, name: trimmed, arguments: parsed.args } };
}

/** A copy of `call` under a new id and a name not taken yet (`add (copy)`, `add (copy 2)`…). */
export function duplicateCall(call: SavedCall, taken: readonly string[], id: string, nowUs: number): SavedCall {
  const base = call.name.replace(/ \(copy(?: \d+)?\)$/, "");
  let name = `${base} (copy)`;
  for (let n = 2; taken.includes(name); n += 1) name = `${base} (copy ${n})`;
  return { ...call, id, name, created_wall_us: nowUs, arguments: structuredClone(call.arguments) };
}

/** One line of arguments for a list row. */
export function argumentsLine(args: JsonValue): string {
  if (isObject(args) && Object.keys(args).length === 0) return "";
  const text = JSON.stringify(args);
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/** Arguments as the editor shows them. */
export const argumentsText = (args: JsonValue): string => pretty(args);

/** "Tool", "Resource", "Prompt", in the UI's language now. */
export const kindLabel = (kind: CallKind): string => i18n.t(`saved:kinds.${kind}`);

/** "ok", "isError", "protocol error", in the UI's language now. */
export const outcomeLabel = (outcome: CallOutcome): string => i18n.t(`saved:outcomes.${outcome}`);
