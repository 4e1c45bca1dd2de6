// A tool's `inputSchema`, made ready for the generated form. Servers send all sorts of JSON
// Schema: the form tolerates what it can. Validation is not the form's job: the page may not
// compile code (CSP), so arguments are checked in Rust (`validate_json`) and shown as warnings.
import type { RJSFSchema } from "@rjsf/utils";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import i18n from "../i18n";
import type { JsonObject } from "../ipc";
import { isObject } from "../json";

export interface PreparedSchema {
  schema: RJSFSchema;
  /** Sentences for the user about what was adjusted. */
  notes: string[];
}

/**
 * - a missing or non-object schema becomes `{"type": "object"}` (MCP requires an object);
 * - `$schema` is dropped for the form (it only tells the validator which draft to use, and
 *   the validator gets the tool's own schema, `$schema` included);
 * - a schema with `properties` but no `type` gets `"type": "object"`.
 */
export function prepareSchema(input: JsonValue | undefined): PreparedSchema {
  const object: JsonObject = isObject(input) ? { ...input } : { type: "object" };
  delete object["$schema"];
  if (object["type"] === undefined && object["properties"] !== undefined) object["type"] = "object";
  return { schema: object as RJSFSchema, notes: schemaNotes(input) };
}

/** What `prepareSchema` adjusted, in the UI's language now (cheap: for each render). */
export function schemaNotes(input: JsonValue | undefined): string[] {
  return isObject(input) ? [] : [i18n.t("tools:schema.noInputSchema")];
}

const COMBINATORS = ["oneOf", "anyOf", "allOf", "$ref", "if", "not", "dependentSchemas", "dependencies"];

/**
 * Whether the tool's own schema declares no argument at all (an object schema without
 * properties, extra properties or combinators): its form has no field.
 */
export function declaresNoArguments(input: JsonValue | undefined): boolean {
  if (!isObject(input)) return false;
  if (input["type"] !== undefined && input["type"] !== "object") return false;
  const properties = input["properties"];
  if (properties !== undefined && !(isObject(properties) && Object.keys(properties).length === 0)) return false;
  const extra = input["additionalProperties"];
  if (extra !== undefined && extra !== false) return false;
  if (input["patternProperties"] !== undefined) return false;
  return COMBINATORS.every((key) => input[key] === undefined);
}

/** The schema the arguments are checked against: the tool's own, or an open object. */
export function schemaForCheck(input: JsonValue | undefined): JsonValue {
  return isObject(input) ? input : { type: "object" };
}

/** Parses the JSON editor's text into tool arguments (an object), or says why not. */
export function parseArguments(text: string): { args: JsonObject } | { error: string } {
  if (text.trim() === "") return { args: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: i18n.t("tools:schema.notJson", { error: error instanceof Error ? error.message : String(error) }) };
  }
  if (!isObject(value as JsonValue)) return { error: i18n.t("tools:schema.notObject") };
  return { args: value as JsonObject };
}
