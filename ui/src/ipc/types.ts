// Types the IPC layer adds beside the generated bindings: the JSON object shape, and the log
// levels as a list (the type itself is the engine's LogLevel).
import type { LogLevel } from "../bindings/LogLevel";
import type { JsonValue } from "../bindings/serde_json/JsonValue";

export type { ListKind } from "../bindings/ListKind";
export type { PagedKind } from "../bindings/PagedKind";
export type { LogLevel };

export type JsonObject = { [key: string]: JsonValue };

/** The levels of `logging/setLevel` and of log notifications, least severe first. */
export const LOG_LEVELS: readonly LogLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
