// A tool's `inputSchema`, made ready for the generated form. Servers send all sorts of JSON
// Schema: the form tolerates what it can, and says plainly when it cannot validate.
import type { RJSFSchema, ValidatorType } from "@rjsf/utils";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import type { JsonObject } from "../ipc";
import { isObject } from "../json";

export interface PreparedSchema {
  schema: RJSFSchema;
  /** False when the validator cannot compile the schema: the form then sends unvalidated. */
  canValidate: boolean;
  /** Sentences for the user about what was adjusted or cannot be done. */
  notes: string[];
}

/**
 * - a missing or non-object schema becomes `{"type": "object"}` (MCP requires an object);
 * - `$schema` is dropped: the validator speaks draft-07 and would refuse to load a 2020-12
 *   meta-schema it doesn't have, while `$defs`/`$ref` keep working;
 * - a schema the validator cannot compile is kept for the form, with validation off.
 */
export function prepareSchema(input: JsonValue | undefined, validator: ValidatorType): PreparedSchema {
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
  const schema = object as RJSFSchema;
  if (!evalAllowed()) {
    notes.push(
      "Validation is off: the app's content security policy forbids the code generation the schema validator needs. Arguments are sent as entered; the server checks them.",
    );
    return { schema, canValidate: false, notes };
  }
  const problem = compileProblem(schema, validator);
  if (problem !== null) {
    notes.push(`The input schema cannot be validated here (${problem}); arguments are sent as entered.`);
  }
  return { schema, canValidate: problem === null, notes };
}

let evalChecked: boolean | null = null;

/**
 * Whether the page may compile code at run time, which the validator (Ajv) does. The desktop
 * app's CSP (`default-src 'self'`) forbids it; tests and a plain browser allow it.
 */
export function evalAllowed(): boolean {
  if (evalChecked === null) {
    try {
      evalChecked = new Function("return true")() === true;
    } catch {
      evalChecked = false;
    }
  }
  return evalChecked;
}

/** Why the validator cannot use this schema, or null when it can. */
export function compileProblem(schema: RJSFSchema, validator: ValidatorType): string | null {
  try {
    const { validationError } = validator.rawValidation(schema, {});
    return validationError ? validationError.message : null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
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
