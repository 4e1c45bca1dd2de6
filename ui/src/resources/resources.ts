// Reading `resources/list` and `resources/templates/list` items.
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { getString, isObject } from "../json";

export interface ResourceInfo {
  uri: string;
  name: string | null;
  title: string | null;
  description: string | null;
  mimeType: string | null;
}

export interface TemplateInfo {
  uriTemplate: string;
  name: string | null;
  title: string | null;
  description: string | null;
}

export function resourceInfo(raw: JsonValue): ResourceInfo | null {
  if (!isObject(raw)) return null;
  const uri = getString(raw, "uri");
  if (uri === undefined) return null;
  return {
    uri,
    name: getString(raw, "name") ?? null,
    title: getString(raw, "title") ?? null,
    description: getString(raw, "description") ?? null,
    mimeType: getString(raw, "mimeType") ?? null,
  };
}

export function templateInfo(raw: JsonValue): TemplateInfo | null {
  if (!isObject(raw)) return null;
  const uriTemplate = getString(raw, "uriTemplate");
  if (uriTemplate === undefined) return null;
  return {
    uriTemplate,
    name: getString(raw, "name") ?? null,
    title: getString(raw, "title") ?? null,
    description: getString(raw, "description") ?? null,
  };
}
