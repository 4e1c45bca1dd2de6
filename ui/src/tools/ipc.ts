// The Tools tab's own commands (src-tauri/src/cmd_tools.rs). Like ../ipc.ts, the only callers
// of these Rust commands.
import { invoke } from "@tauri-apps/api/core";
import type { SchemaReport } from "../bindings/SchemaReport";
import type { JsonValue } from "../bindings/serde_json/JsonValue";

export const toolsIpc = {
  /** Checks `instance` against `schema` in Rust (the page may not compile code: no Ajv). */
  validateJson: (schema: JsonValue, instance: JsonValue) =>
    invoke<SchemaReport>("validate_json", { schema, instance }),
  /** Cancels a call started with this call id; false when it had already ended. */
  cancelCall: (serverId: string, callId: string) => invoke<boolean>("cancel_call", { serverId, callId }),
};
