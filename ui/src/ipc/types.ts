// Types the Rust side defines but does not generate yet: kept here, once, so the swap for the
// generated import touches one file.
import type { JsonValue } from "../bindings/serde_json/JsonValue";

export type JsonObject = { [key: string]: JsonValue };

// generated soon: ../bindings/ListKind (the same string union)
/** What `list_items` can list. */
export type ListKind = "tools" | "resources" | "resource_templates" | "prompts";

// generated soon: ../bindings/PagedKind (the same string union)
/** The lists loaded page by page (`list_page`). */
export type PagedKind = "resources" | "resource_templates";

// generated soon: the engine's LogLevel (the same string union); keep LOG_LEVELS beside it.
/** The levels of `logging/setLevel` and of log notifications, least severe first. */
export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
