// Reading tools from `tools/list` items.
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { asObject, getString, isObject } from "../json";

export interface ToolInfo {
  name: string;
  title: string | null;
  description: string | null;
  inputSchema: JsonValue | undefined;
  outputSchema: JsonValue | undefined;
  /** Annotation hints that are true (readOnlyHint, destructiveHint…). */
  hints: string[];
  raw: JsonValue;
}

export function toolInfo(raw: JsonValue): ToolInfo | null {
  if (!isObject(raw)) return null;
  const name = getString(raw, "name");
  if (name === undefined) return null;
  const annotations = asObject(raw["annotations"]);
  return {
    name,
    title: getString(raw, "title") ?? getString(annotations, "title") ?? null,
    description: getString(raw, "description") ?? null,
    inputSchema: raw["inputSchema"],
    outputSchema: raw["outputSchema"],
    hints: Object.entries(annotations)
      .filter(([key, value]) => key.endsWith("Hint") && value === true)
      .map(([key]) => key.replace(/Hint$/, "")),
    raw,
  };
}
