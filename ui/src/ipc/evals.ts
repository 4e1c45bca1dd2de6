// The Evals view (docs/evals.md): a server's suite kept and checked, a starter made from its
// tools, a run over its connection with progress, kept runs listed, read, compared, deleted.
import { Channel, invoke } from "@tauri-apps/api/core";
import type { EvalCaseComparison } from "../bindings/EvalCaseComparison";
import type { EvalProgress } from "../bindings/EvalProgress";
import type { EvalExport } from "../bindings/EvalExport";
import type { EvalRun } from "../bindings/EvalRun";
import type { EvalRunInfo } from "../bindings/EvalRunInfo";
import type { EvalRunRequest } from "../bindings/EvalRunRequest";
import type { EvalSuiteCheck } from "../bindings/EvalSuiteCheck";

export const evalsIpc = {
  /** The server's suite as last typed, or null. */
  evalsSuite: (serverId: string) => invoke<string | null>("evals_suite", { serverId }),
  /** Keeps the suite as typed; what it holds or why it does not read. */
  evalsSuiteSave: (serverId: string, text: string) => invoke<EvalSuiteCheck>("evals_suite_save", { serverId, text }),
  /** A starter suite made from the server's tools. */
  evalsStarter: (serverId: string) => invoke<string>("evals_starter", { serverId }),
  /** Runs the saved suite; resolves with the kept run when it ends. */
  evalsRun: (serverId: string, request: EvalRunRequest, onProgress: (p: EvalProgress) => void) => {
    const channel = new Channel<EvalProgress>();
    channel.onmessage = onProgress;
    return invoke<EvalRun>("evals_run", { serverId, request, onProgress: channel });
  },
  evalsStop: (serverId: string) => invoke<boolean>("evals_stop", { serverId }),
  evalsRuns: (serverId: string) => invoke<EvalRunInfo[]>("evals_runs", { serverId }),
  evalsGet: (serverId: string, runId: string) => invoke<EvalRun>("evals_get", { serverId, runId }),
  evalsCompare: (serverId: string, before: string, after: string) =>
    invoke<EvalCaseComparison[]>("evals_compare", { serverId, before, after }),
  evalsDelete: (serverId: string, runId: string) => invoke<EvalRunInfo[]>("evals_delete", { serverId, runId }),
  /** Writes a kept run where the user picks; the path, or null when cancelled. */
  evalsExport: (serverId: string, runId: string, format: EvalExport) => invoke<string | null>("evals_export", { serverId, runId, format }),
};
