// MCP content as the UI shows it: tool results, prompt messages and resource contents are read
// defensively from the JSON the server sent; anything unexpected becomes an `unknown` block
// that shows the raw JSON and says what was wrong, instead of disappearing.
import type { ContentBlock } from "../bindings/ContentBlock";
import type { ContentProblem } from "../bindings/ContentProblem";
import type { ResourceContents } from "../bindings/ResourceContents";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { base64Size, dataUri } from "../format";
import i18n from "../i18n";
import { getArray, getString, isObject } from "../json";

/** The contents of a resource (in `resources/read`, or embedded in a `resource` block). */
export interface ResourceBody {
  uri: string;
  mimeType: string | null;
  text: string | null;
  /** Only for a blob: its size, its base64 data and, for images, a data: URI to preview it. */
  blob: { size: number; data: string; imageSrc: string | null } | null;
}

export type Block =
  | { type: "text"; text: string }
  | { type: "image"; mimeType: string; src: string; size: number }
  | { type: "audio"; mimeType: string; src: string; size: number }
  | {
      type: "resource_link";
      uri: string;
      name: string | null;
      title: string | null;
      description: string | null;
      mimeType: string | null;
    }
  | { type: "resource"; resource: ResourceBody }
  | { type: "unknown"; reason: string; raw: JsonValue };

const unknown = (reason: string, raw: JsonValue): Block => ({ type: "unknown", reason, raw });

/** What the engine found off in content, in the UI's language. */
export function problemText(problem: ContentProblem): string {
  return i18n.t(`content:problems.${problem.kind}`, { type: "type" in problem ? problem.type : "" });
}

/** A resource's contents the engine read, as the UI shows them. */
export function bodyOf(contents: ResourceContents): ResourceBody {
  const { uri, mime_type: mimeType, text, blob } = contents;
  return {
    uri,
    mimeType,
    text,
    blob:
      blob === null
        ? null
        : { size: blob.size, data: blob.data, imageSrc: mimeType?.startsWith("image/") ? dataUri(mimeType, blob.data) : null },
  };
}

/** A content block the engine read, as the UI shows it. */
export function blockOf(block: ContentBlock): Block {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image":
    case "audio":
      return { type: block.type, mimeType: block.mime_type, src: dataUri(block.mime_type, block.data), size: block.size };
    case "resource_link":
      return {
        type: "resource_link",
        uri: block.uri,
        name: block.name,
        title: block.title,
        description: block.description,
        mimeType: block.mime_type,
      };
    case "resource":
      return { type: "resource", resource: bodyOf(block.resource) };
    case "unknown":
      return unknown(problemText(block.problem), block.raw);
    default:
      // Sampling's tool use and tool result have no place in a message: shown as JSON.
      return unknown(problemText({ kind: "unknownType", type: block.type }), block.raw);
  }
}

/** Reads `{uri, mimeType, text | blob}`. */
export function parseResourceBody(value: JsonValue): ResourceBody | string {
  if (!isObject(value)) return i18n.t("content:problems.contentsNotObject");
  const uri = getString(value, "uri");
  if (uri === undefined) return i18n.t("content:problems.contentsNoUri");
  const mimeType = getString(value, "mimeType") ?? null;
  const text = getString(value, "text");
  const blob = getString(value, "blob");
  if (text === undefined && blob === undefined) return i18n.t("content:problems.contentsNoData");
  return {
    uri,
    mimeType,
    text: text ?? null,
    blob:
      blob === undefined
        ? null
        : {
            size: base64Size(blob),
            data: blob,
            imageSrc: mimeType?.startsWith("image/") ? dataUri(mimeType, blob) : null,
          },
  };
}

export function parseBlock(value: JsonValue): Block {
  if (!isObject(value)) return unknown(i18n.t("content:problems.blockNotObject"), value);
  const type = getString(value, "type");
  switch (type) {
    case "text": {
      const text = getString(value, "text");
      return text === undefined ? unknown(i18n.t("content:problems.textWithoutText"), value) : { type: "text", text };
    }
    case "image":
    case "audio": {
      const data = getString(value, "data");
      const mimeType = getString(value, "mimeType");
      if (data === undefined || mimeType === undefined) {
        return unknown(i18n.t("content:problems.mediaWithoutData", { type }), value);
      }
      return { type, mimeType, src: dataUri(mimeType, data), size: base64Size(data) };
    }
    case "resource_link": {
      const uri = getString(value, "uri");
      if (uri === undefined) return unknown(i18n.t("content:problems.linkWithoutUri"), value);
      return {
        type: "resource_link",
        uri,
        name: getString(value, "name") ?? null,
        title: getString(value, "title") ?? null,
        description: getString(value, "description") ?? null,
        mimeType: getString(value, "mimeType") ?? null,
      };
    }
    case "resource": {
      const body = parseResourceBody(value["resource"] ?? null);
      return typeof body === "string" ? unknown(body, value) : { type: "resource", resource: body };
    }
    default:
      return unknown(
        type === undefined ? i18n.t("content:problems.noType") : i18n.t("content:problems.unknownType", { type }),
        value,
      );
  }
}

export interface ToolResult {
  blocks: Block[];
  /** `structuredContent`, when the server sent it. */
  structured: JsonValue | undefined;
  isError: boolean;
  /** What is off about the result's shape (shown, not fatal). */
  problems: string[];
}

/** Reads a CallToolResult. */
export function parseToolResult(value: JsonValue): ToolResult {
  if (!isObject(value)) {
    return { blocks: [], structured: undefined, isError: false, problems: [i18n.t("content:problems.resultNotObject")] };
  }
  const problems: string[] = [];
  if (!Array.isArray(value["content"])) problems.push(i18n.t("content:problems.noContentArray"));
  const isError = value["isError"] === true;
  return {
    blocks: getArray(value, "content").map(parseBlock),
    structured: value["structuredContent"],
    isError,
    problems,
  };
}

export interface PromptMessage {
  role: string;
  block: Block;
}

/** Reads a GetPromptResult. */
export function parsePromptResult(value: JsonValue): { description: string | null; messages: PromptMessage[] } {
  if (!isObject(value)) return { description: null, messages: [] };
  return {
    description: getString(value, "description") ?? null,
    messages: getArray(value, "messages").map((m) => {
      if (!isObject(m)) return { role: "?", block: unknown(i18n.t("content:problems.messageNotObject"), m) };
      return { role: getString(m, "role") ?? "?", block: parseBlock(m["content"] ?? null) };
    }),
  };
}

/** Reads a ReadResourceResult. */
export function parseReadResult(value: JsonValue): Array<ResourceBody | { problem: string; raw: JsonValue }> {
  if (!isObject(value)) return [{ problem: i18n.t("content:problems.resultNotObject"), raw: value }];
  return getArray(value, "contents").map((c) => {
    const body = parseResourceBody(c);
    return typeof body === "string" ? { problem: body, raw: c } : body;
  });
}
