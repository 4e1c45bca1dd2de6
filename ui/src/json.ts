// Small readers for JSON the server sent: nothing it sends is trusted to have the right shape.
import type { JsonValue } from "./bindings/serde_json/JsonValue";
import type { JsonObject } from "./ipc";

export function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function asObject(value: JsonValue | undefined): JsonObject {
  return isObject(value) ? value : {};
}

export function getString(object: JsonObject, key: string): string | undefined {
  const value = object[key];
  return typeof value === "string" ? value : undefined;
}

export function getArray(object: JsonObject, key: string): JsonValue[] {
  const value = object[key];
  return Array.isArray(value) ? value : [];
}

/** Indented JSON for display; never throws. */
export function pretty(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch (error) {
    return `(cannot show as JSON: ${String(error)})`;
  }
}
