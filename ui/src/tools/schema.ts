// A tool's `inputSchema`, made ready for the generated form. Servers send all sorts of JSON
// Schema: the form tolerates what it can. Validation is not the form's job: the page may not
// compile code (CSP), so arguments are checked in Rust (`validate_json`) and shown as warnings.
import type { RJSFSchema } from "@rjsf/utils";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
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
  const notes: string[] = [];
  let object: JsonObject;
  if (isObject(input)) {
    object = { ...input };
  } else {
    notes.push("The tool has no usable inputSchema; it is treated as an object with any properties.");
    object = { type: "object" };
  }
  delete object["$schema"];
  if (object["type"] === undefined && object["properties"] !== undefined) object["type"] = "object";
  return { schema: object as RJSFSchema, notes };
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
    return { error: `The arguments are not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!isObject(value as JsonValue)) return { error: "The arguments must be a JSON object, like {\"a\": 1}." };
  return { args: value as JsonObject };
}
