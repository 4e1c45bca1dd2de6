// Reading tools from `tools/list` items.
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { asObject, getString, isObject } from "../json";

/** One annotation hint the server set, as the server stated it. */
export interface ToolHint {
  key: "readOnlyHint" | "destructiveHint" | "idempotentHint" | "openWorldHint";
  value: boolean;
  /** What the claim says, in words. */
  label: string;
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

const HINT_WORDS: Record<ToolHint["key"], [string, string]> = {
  readOnlyHint: ["read-only", "may modify its environment"],
  destructiveHint: ["may be destructive", "not destructive"],
  idempotentHint: ["idempotent", "not idempotent"],
  openWorldHint: ["open world (reaches outside systems)", "closed world"],
};

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
  for (const key of Object.keys(HINT_WORDS) as Array<ToolHint["key"]>) {
    const value = annotations[key];
    if (typeof value === "boolean") claims.push({ key, value, label: HINT_WORDS[key][value ? 0 : 1] });
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
