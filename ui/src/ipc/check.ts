// The Check view: a check of a catalog server (its steps streamed as they happen), the server's
// last run, and its report exported where the user picks.
import { Channel, invoke } from "@tauri-apps/api/core";
import type { CheckExport } from "../bindings/CheckExport";
import type { CheckProgress } from "../bindings/CheckProgress";
import type { CheckRun } from "../bindings/CheckRun";
import type { CheckRunOptions } from "../bindings/CheckRunOptions";
import type { ConnectedAudit } from "../bindings/ConnectedAudit";

export const checkIpc = {
  checkRun: (serverId: string, options: CheckRunOptions, onProgress: (step: CheckProgress) => void) => {
    const channel = new Channel<CheckProgress>();
    channel.onmessage = onProgress;
    return invoke<CheckRun>("check_run", { serverId, options, onProgress: channel });
  },
  /** Stops the server's running check; whether one was running. */
  checkCancel: (serverId: string) => invoke<boolean>("check_cancel", { serverId }),
  checkLast: (serverId: string) => invoke<CheckRun | null>("check_last", { serverId }),
  /** The last report written where the user picks; the path, or null if cancelled. */
  checkExport: (serverId: string, format: CheckExport) => invoke<string | null>("check_export", { serverId, format }),
  /** Every connected server audited together (their lists read anew). */
  auditConnected: () => invoke<ConnectedAudit>("audit_connected"),
};
