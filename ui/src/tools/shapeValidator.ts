// A validator for the generated form that compiles nothing. The desktop app's CSP forbids the
// run-time code generation Ajv relies on; the form still needs to tell which `oneOf`/`anyOf`
// option some data belongs to, which this answers by checking shape: $ref, type, const, enum,
// required, properties, items and the combinators. It reports no errors to the form: the
// arguments are checked in Rust (`validate_json`, schema_check.rs) and shown as warnings.
import type { RJSFSchema, ValidatorType } from "@rjsf/utils";

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => equal(x, b[i]));
  if (isObj(a) && isObj(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && equal(a[k], b[k]));
  }
  return false;
}

function typeMatches(type: unknown, data: unknown): boolean {
  if (Array.isArray(type)) return type.some((t) => typeMatches(t, data));
  switch (type) {
    case "string":
      return typeof data === "string";
    case "number":
      return typeof data === "number";
    case "integer":
      return Number.isInteger(data);
    case "boolean":
      return typeof data === "boolean";
    case "null":
      return data === null;
    case "array":
      return Array.isArray(data);
    case "object":
      return isObj(data);
    default:
      return true;
  }
}

/** Follows a local JSON pointer (`#/$defs/Address`) in the root schema. */
function resolve(ref: string, root: unknown): unknown {
  if (!ref.startsWith("#")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split("/").filter((p) => p !== "")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isObj(node) && !Array.isArray(node)) return undefined;
    node = (node as Obj)[key];
  }
  return node;
}

/** Whether `data` has the shape `schema` describes. */
export function fits(schema: unknown, data: unknown, root: unknown, depth = 0): boolean {
  if (depth > 64 || schema === true || !isObj(schema)) return schema !== false;
  const next = (s: unknown, d: unknown) => fits(s, d, root, depth + 1);
  if (typeof schema["$ref"] === "string") {
    const target = resolve(schema["$ref"], root);
    if (target !== undefined && !next(target, data)) return false;
  }
  if ("const" in schema && !equal(schema["const"], data)) return false;
  const values = schema["enum"];
  if (Array.isArray(values) && !values.some((v) => equal(v, data))) return false;
  if (schema["type"] !== undefined && !typeMatches(schema["type"], data)) return false;
  if (isObj(data)) {
    const required = schema["required"];
    if (Array.isArray(required) && required.some((k) => typeof k === "string" && !(k in data))) return false;
    const properties = schema["properties"];
    if (isObj(properties)) {
      for (const [key, sub] of Object.entries(properties)) {
        if (key in data && !next(sub, data[key])) return false;
      }
    }
  }
  if (Array.isArray(data) && isObj(schema["items"])) {
    const items = schema["items"];
    if (!data.every((item) => next(items, item))) return false;
  }
  const allOf = schema["allOf"];
  if (Array.isArray(allOf) && !allOf.every((s) => next(s, data))) return false;
  const anyOf = schema["anyOf"];
  if (Array.isArray(anyOf) && !anyOf.some((s) => next(s, data))) return false;
  const oneOf = schema["oneOf"];
  if (Array.isArray(oneOf) && oneOf.filter((s) => next(s, data)).length !== 1) return false;
  return true;
}

export const shapeValidator: ValidatorType = {
  validateFormData: () => ({ errors: [], errorSchema: {} }),
  isValid: (schema: RJSFSchema, formData: unknown, rootSchema: RJSFSchema) => fits(schema, formData, rootSchema),
  rawValidation: () => ({ errors: [], validationError: undefined }),
};
