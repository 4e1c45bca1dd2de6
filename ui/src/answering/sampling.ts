// A `sampling/createMessage` request read for display, defensively: whatever is missing or
// malformed is reported in `problems` and shown, never thrown.
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import i18n from "../i18n";
import type { JsonObject } from "../ipc";
import { base64Size, dataUri } from "../format";
import { getArray, getString, isObject } from "../json";

/** The stop reasons a reply may give. */
export const STOP_REASONS = ["endTurn", "stopSequence", "maxTokens", "toolUse"] as const;
/** The model name a human's reply gives by default. */
export const DEFAULT_MODEL = "periscope-human";
/** The error the server gets when the user rejects without a reason: protocol text, not translated. */
export const DEFAULT_REJECT_REASON = "The user rejected the sampling request.";

export type SamplingBlock =
  | { type: "text"; text: string }
  | { type: "image"; mimeType: string; src: string; size: number }
  | { type: "audio"; mimeType: string; src: string; size: number }
  | { type: "tool_use"; id: string | null; name: string; input: JsonValue }
  | { type: "tool_result"; toolUseId: string | null; isError: boolean; content: SamplingBlock[] }
  /** Anything else, shown as JSON; `reason` says why it is not shown otherwise (null: a known kind shown raw). */
  | { type: "other"; reason: string | null; raw: JsonValue };

export interface SamplingMessage {
  role: string;
  blocks: SamplingBlock[];
}

export interface SamplingTool {
  name: string;
  description: string | null;
  inputSchema: JsonValue | undefined;
}

export interface Priority {
  name: "cost" | "speed" | "intelligence";
  value: number;
}

export interface SamplingRequest {
  messages: SamplingMessage[];
  systemPrompt: string | null;
  hints: string[];
  priorities: Priority[];
  includeContext: string | null;
  temperature: number | null;
  maxTokens: number | null;
  stopSequences: string[];
  tools: SamplingTool[];
  /** `toolChoice.mode` ("auto", "required", "none"), when given. */
  toolChoice: string | null;
  metadata: JsonValue | undefined;
  /** What is off about the request's shape. */
  problems: string[];
}

const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

function getNumber(object: JsonObject, key: string): number | null {
  const value = object[key];
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** base64 media of the given family as a data: URI, or why it cannot be shown. */
function media(value: JsonObject, family: "image" | "audio"): { mimeType: string; src: string; size: number } | string {
  const data = getString(value, "data");
  const mimeType = getString(value, "mimeType");
  if (data === undefined || mimeType === undefined) return i18n.t("answering:parse.mediaNoData", { family });
  if (!mimeType.toLowerCase().startsWith(`${family}/`) || /[\s;,]/.test(mimeType)) {
    return i18n.t("answering:parse.mediaMimeType", { family, mimeType });
  }
  if (!BASE64.test(data)) return i18n.t("answering:parse.mediaNotBase64", { family });
  return { mimeType, src: dataUri(mimeType, data), size: base64Size(data) };
}

export function parseSamplingBlock(value: JsonValue): SamplingBlock {
  if (!isObject(value)) return { type: "other", reason: i18n.t("answering:parse.blockNotObject"), raw: value };
  const type = getString(value, "type");
  const other = (reason: string | null): SamplingBlock => ({ type: "other", reason, raw: value });
  switch (type) {
    case "text": {
      const text = getString(value, "text");
      return text === undefined ? other(i18n.t("answering:parse.textWithoutText")) : { type: "text", text };
    }
    case "image":
    case "audio": {
      const m = media(value, type);
      return typeof m === "string" ? other(m) : { type, ...m };
    }
    case "tool_use": {
      const name = getString(value, "name");
      if (name === undefined) return other(i18n.t("answering:parse.toolUseWithoutName"));
      return { type: "tool_use", id: getString(value, "id") ?? null, name, input: value["input"] ?? null };
    }
    case "tool_result": {
      const content = value["content"];
      return {
        type: "tool_result",
        toolUseId: getString(value, "toolUseId") ?? null,
        isError: value["isError"] === true,
        content: Array.isArray(content)
          ? content.map(parseSamplingBlock)
          : content === undefined
            ? []
            : [parseSamplingBlock(content)],
      };
    }
    case undefined:
      return other(i18n.t("answering:parse.blockWithoutType"));
    default:
      return other(null);
  }
}

function parseMessage(value: JsonValue, index: number, problems: string[]): SamplingMessage {
  if (!isObject(value)) {
    problems.push(i18n.t("answering:parse.messageNotObject", { n: index + 1 }));
    return { role: "?", blocks: [{ type: "other", reason: i18n.t("answering:parse.aMessageNotObject"), raw: value }] };
  }
  const role = getString(value, "role");
  if (role === undefined) problems.push(i18n.t("answering:parse.messageNoRole", { n: index + 1 }));
  const content = value["content"];
  if (content === undefined) problems.push(i18n.t("answering:parse.messageNoContent", { n: index + 1 }));
  const blocks = Array.isArray(content) ? content.map(parseSamplingBlock) : content === undefined ? [] : [parseSamplingBlock(content)];
  return { role: role ?? "?", blocks };
}

const PRIORITIES = [
  ["cost", "costPriority"],
  ["speed", "speedPriority"],
  ["intelligence", "intelligencePriority"],
] as const;

/** Reads `sampling/createMessage` params; never throws. */
export function parseSamplingRequest(params: JsonValue): SamplingRequest {
  const problems: string[] = [];
  const p: JsonObject = isObject(params) ? params : {};
  if (!isObject(params)) problems.push(i18n.t("answering:parse.paramsNotObject"));

  if (isObject(params) && !Array.isArray(params["messages"])) problems.push(i18n.t("answering:parse.noMessages"));
  const messages = getArray(p, "messages").map((m, i) => parseMessage(m, i, problems));

  const prefs = isObject(p["modelPreferences"]) ? p["modelPreferences"] : {};
  const hints = getArray(prefs, "hints")
    .map((h) => (isObject(h) ? getString(h, "name") : undefined))
    .filter((h): h is string => h !== undefined);
  const priorities: Priority[] = [];
  for (const [name, key] of PRIORITIES) {
    const value = getNumber(prefs, key);
    if (value !== null) priorities.push({ name, value });
  }

  const maxTokens = getNumber(p, "maxTokens");
  if (isObject(params) && maxTokens === null) problems.push(i18n.t("answering:parse.noMaxTokens"));

  const tools: SamplingTool[] = getArray(p, "tools").flatMap((t) => {
    const name = isObject(t) ? getString(t, "name") : undefined;
    if (!isObject(t) || name === undefined) {
      problems.push(i18n.t("answering:parse.toolWithoutName"));
      return [];
    }
    return [{ name, description: getString(t, "description") ?? null, inputSchema: t["inputSchema"] }];
  });
  const choice = p["toolChoice"];

  return {
    messages,
    systemPrompt: getString(p, "systemPrompt") ?? null,
    hints,
    priorities,
    includeContext: getString(p, "includeContext") ?? null,
    temperature: getNumber(p, "temperature"),
    maxTokens,
    stopSequences: getArray(p, "stopSequences").filter((s): s is string => typeof s === "string"),
    tools,
    toolChoice: isObject(choice) ? (getString(choice, "mode") ?? null) : null,
    metadata: p["metadata"],
    problems,
  };
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
