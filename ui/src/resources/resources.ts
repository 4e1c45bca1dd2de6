// What the Resources tab shows of the resources and templates the engine read from
// `resources/list` and `resources/templates/list` (`ResourceView`, `TemplateView`).
import type { ResourceView } from "../bindings/ResourceView";
import type { TemplateView } from "../bindings/TemplateView";

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

/** A resource with a URI (one without cannot be read). */
export function resourceInfo(view: ResourceView): ResourceInfo | null {
  if (view.uri === null) return null;
  return { uri: view.uri, name: view.name, title: view.title, description: view.description, mimeType: view.mime_type };
}

/** A template with its `uriTemplate`. */
export function templateInfo(view: TemplateView): TemplateInfo | null {
  if (view.uri_template === null) return null;
  return { uriTemplate: view.uri_template, name: view.name, title: view.title, description: view.description };
}
