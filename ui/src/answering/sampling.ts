// Answering a `sampling/createMessage` request: what the reply may say, and reading what the
// user typed. The request itself is read by the engine (`SamplingView`, vocabulary/views/
// sampling.rs); this file only words what it found off and lists its priorities.
import type { SamplingView } from "../bindings/SamplingView";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import i18n from "../i18n";
import type { JsonObject } from "../ipc";
import { isObject } from "../json";

/** The stop reasons a reply may give. */
export const STOP_REASONS = ["endTurn", "stopSequence", "maxTokens", "toolUse"] as const;
/** The model name a human's reply gives by default. */
export const DEFAULT_MODEL = "periscope-human";
/** The error the server gets when the user rejects without a reason: protocol text, not translated. */
export const DEFAULT_REJECT_REASON = "The user rejected the sampling request.";

export interface Priority {
  name: "cost" | "speed" | "intelligence";
  value: number;
}

/** The model preferences' priorities the request gives, in a fixed order. */
export function prioritiesOf(view: SamplingView): Priority[] {
  const prefs = view.model_preferences;
  const all: Array<[Priority["name"], number | null]> = [
    ["cost", prefs.cost_priority],
    ["speed", prefs.speed_priority],
    ["intelligence", prefs.intelligence_priority],
  ];
  return all.flatMap(([name, value]) => (value === null ? [] : [{ name, value }]));
}

/** A tool_use id in the usual shape: "toolu_" and 24 random hex digits. */
export function toolUseId(): string {
  const bytes = new Uint8Array(12);
  if (typeof crypto !== "undefined" && typeof crypto.getRandomValues === "function") {
    crypto.getRandomValues(bytes);
  } else {
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  }
  return `toolu_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** Parses the tool input the user typed: it must be a JSON object. */
export function parseToolInput(text: string): { input: JsonObject } | { error: string } {
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch (error) {
    return { error: i18n.t("answering:parse.inputNotJson", { error: error instanceof Error ? error.message : String(error) }) };
  }
  return isObject(value) ? { input: value } : { error: i18n.t("answering:parse.inputNotObject") };
}
