// Reading tools from `tools/list` items.
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import i18n from "../i18n";
import { asObject, getString, isObject } from "../json";

/** One annotation hint the server set, as the server stated it. */
export interface ToolHint {
  key: "readOnlyHint" | "destructiveHint" | "idempotentHint" | "openWorldHint";
  value: boolean;
}

const HINT_KEYS: ReadonlyArray<ToolHint["key"]> = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"];

/** What a claim says, in words (in the UI's language now). */
export function hintLabel(hint: ToolHint): string {
  return i18n.t(`tools:claims.${hint.key}.${hint.value ? "yes" : "no"}`);
}

export interface ToolIcon {
  src: string;
  mimeType: string | null;
  sizes: string | null;
}

export interface ToolInfo {
  name: string;
  title: string | null;
  description: string | null;
  inputSchema: JsonValue | undefined;
  outputSchema: JsonValue | undefined;
  /** Annotation hints that are true (readOnly, destructive…), short names. */
  hints: string[];
  /** Every boolean annotation hint the server sent, true or false. */
  claims: ToolHint[];
  /** `annotations.title`, when the server sent one. */
  annotationTitle: string | null;
  /** Icons the app shows (data:image/ URLs). */
  icons: ToolIcon[];
  /** https: icons, named but not loaded (the CSP allows no remote images: see docs/tools.md). */
  remoteIcons: string[];
  raw: JsonValue;
}

function icons(raw: JsonValue): { shown: ToolIcon[]; remote: string[] } {
  const list = isObject(raw) && Array.isArray(raw["icons"]) ? raw["icons"] : [];
  const shown: ToolIcon[] = [];
  const remote: string[] = [];
  for (const icon of list.slice(0, 16)) {
    if (!isObject(icon)) continue;
    const src = getString(icon, "src")?.trim();
    if (!src) continue;
    const lower = src.toLowerCase();
    if (lower.startsWith("data:image/")) {
      shown.push({ src, mimeType: getString(icon, "mimeType") ?? null, sizes: getString(icon, "sizes") ?? null });
    } else if (lower.startsWith("https:")) {
      remote.push(src);
    }
  }
  return { shown, remote };
}

export function toolInfo(raw: JsonValue): ToolInfo | null {
  if (!isObject(raw)) return null;
  const name = getString(raw, "name");
  if (name === undefined) return null;
  const annotations = asObject(raw["annotations"]);
  const claims: ToolHint[] = [];
  for (const key of HINT_KEYS) {
    const value = annotations[key];
    if (typeof value === "boolean") claims.push({ key, value });
  }
  const { shown, remote } = icons(raw);
  return {
    name,
    title: getString(raw, "title") ?? getString(annotations, "title") ?? null,
    description: getString(raw, "description") ?? null,
    inputSchema: raw["inputSchema"],
    outputSchema: raw["outputSchema"],
    hints: Object.entries(annotations)
      .filter(([key, value]) => key.endsWith("Hint") && value === true)
      .map(([key]) => key.replace(/Hint$/, "")),
    claims,
    annotationTitle: getString(annotations, "title") ?? null,
    icons: shown,
    remoteIcons: remote,
    raw,
  };
}
