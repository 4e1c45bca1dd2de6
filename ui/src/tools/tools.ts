// What the Tools tab shows of the tools the engine read from `tools/list` (`ToolView`).
import type { OddLetter } from "../bindings/OddLetter";
import type { AppLink } from "../bindings/AppLink";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import type { TaskSupport } from "../bindings/TaskSupport";
import type { ToolView } from "../bindings/ToolView";
import { placeIcons } from "../common/icons";
import i18n from "../i18n";

/** One annotation hint the server set, as the server stated it. */
export interface ToolHint {
  key: "readOnlyHint" | "destructiveHint" | "idempotentHint" | "openWorldHint";
  value: boolean;
}

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
  /** The name's letters of another script, when it mixes scripts (the engine's answer). */
  oddLetters: OddLetter[];
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
  /** Its MCP App link (`_meta.ui`), when it declares one. */
  app: AppLink | null;
  /** Whether "Run as task" is offered: the engine decided it for the session's era. */
  taskSupport: TaskSupport;
  raw: JsonValue;
}

function icons(view: ToolView): { shown: ToolIcon[]; remote: string[] } {
  const { shown, remote } = placeIcons(view.icons);
  return {
    shown: shown.map((icon) => ({ src: icon.src, mimeType: icon.mime_type, sizes: icon.sizes.length > 0 ? icon.sizes.join(" ") : null })),
    remote,
  };
}

/** What the Tools tab shows of a tool the engine read; null for one without a name. */
export function toolInfo(view: ToolView): ToolInfo | null {
  if (view.name === null) return null;
  const annotations = view.annotations;
  const claims: ToolHint[] = [];
  const stated: Array<[ToolHint["key"], boolean | null]> = [
    ["readOnlyHint", annotations.read_only_hint],
    ["destructiveHint", annotations.destructive_hint],
    ["idempotentHint", annotations.idempotent_hint],
    ["openWorldHint", annotations.open_world_hint],
  ];
  for (const [key, value] of stated) {
    if (value !== null) claims.push({ key, value });
  }
  const { shown, remote } = icons(view);
  return {
    name: view.name,
    oddLetters: view.odd_letters,
    title: view.title,
    description: view.description,
    inputSchema: view.input_schema ?? undefined,
    outputSchema: view.output_schema ?? undefined,
    hints: annotations.true_hints,
    claims,
    annotationTitle: annotations.title,
    icons: shown,
    remoteIcons: remote,
    app: view.app,
    taskSupport: view.task_support,
    raw: view.raw,
  };
}
