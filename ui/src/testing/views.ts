// For tests: the engine's views with every member a server left out filled with its empty
// value, so a test names only what it is about (the engine reads real JSON into these).
import type { PromptView } from "../bindings/PromptView";
import type { ResourceView } from "../bindings/ResourceView";
import type { TemplateView } from "../bindings/TemplateView";
import type { ToolAnnotations } from "../bindings/ToolAnnotations";
import type { ToolView } from "../bindings/ToolView";

export function toolView(view: Partial<Omit<ToolView, "annotations">> & { annotations?: Partial<ToolAnnotations> }): ToolView {
  return {
    name: null,
    odd_letters: [],
    title: null,
    description: null,
    input_schema: { type: "object" },
    output_schema: null,
    icons: [],
    task_support: "not_offered",
    app: null,
    header_rules: [],
    header_error: null,
    problems: [],
    raw: {},
    ...view,
    annotations: {
      title: null,
      read_only_hint: null,
      destructive_hint: null,
      idempotent_hint: null,
      open_world_hint: null,
      true_hints: [],
      ...view.annotations,
    },
  };
}

export function promptView(view: Partial<PromptView>): PromptView {
  return { name: null, title: null, description: null, arguments: [], icons: [], problems: [], raw: {}, ...view };
}

export function resourceView(view: Partial<ResourceView>): ResourceView {
  return {
    uri: null,
    name: null,
    title: null,
    description: null,
    mime_type: null,
    size: null,
    icons: [],
    problems: [],
    raw: {},
    ...view,
  };
}

export function templateView(view: Partial<TemplateView>): TemplateView {
  return {
    uri_template: null,
    name: null,
    title: null,
    description: null,
    mime_type: null,
    icons: [],
    problems: [],
    raw: {},
    ...view,
  };
}
