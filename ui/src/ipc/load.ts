// The Load view: a load run of a catalog server, prepared (its summary shown for the user to
// confirm), started (its figures streamed once a second), stopped; the server's kept runs
// listed, read, compared and deleted.
import { Channel, invoke } from "@tauri-apps/api/core";
import type { Comparison } from "../bindings/Comparison";
import type { LoadExport } from "../bindings/LoadExport";
import type { LoadOptions } from "../bindings/LoadOptions";
import type { LoadProgress } from "../bindings/LoadProgress";
import type { LoadRun } from "../bindings/LoadRun";
import type { LoadRunInfo } from "../bindings/LoadRunInfo";
import type { LoadSummary } from "../bindings/LoadSummary";

export const loadIpc = {
  /** Opens the run's first session and says what the run will send; nothing of it is sent yet. */
  loadPrepare: (serverId: string, options: LoadOptions) => invoke<LoadSummary>("load_prepare", { serverId, options }),
  /** The prepared run, not confirmed: its session closes. */
  loadDiscard: (serverId: string) => invoke<void>("load_discard", { serverId }),
  /** Runs the prepared run; resolves with the kept run when it ends. */
  loadStart: (serverId: string, onProgress: (p: LoadProgress) => void) => {
    const channel = new Channel<LoadProgress>();
    channel.onmessage = onProgress;
    return invoke<LoadRun>("load_start", { serverId, onProgress: channel });
  },
  /** Stops the server's running run; whether one was running. */
  loadStop: (serverId: string) => invoke<boolean>("load_stop", { serverId }),
  loadRuns: (serverId: string) => invoke<LoadRunInfo[]>("load_runs", { serverId }),
  loadGet: (serverId: string, runId: string) => invoke<LoadRun>("load_get", { serverId, runId }),
  loadCompare: (serverId: string, before: string, after: string, thresholdPct: number | null) =>
    invoke<Comparison>("load_compare", { serverId, before, after, thresholdPct }),
  /** A kept run written where the user picks; the path, or null if cancelled. */
  loadExport: (serverId: string, runId: string, format: LoadExport) => invoke<string | null>("load_export", { serverId, runId, format }),
  /** Forgets a kept run; the runs left. */
  loadDelete: (serverId: string, runId: string) => invoke<LoadRunInfo[]>("load_delete", { serverId, runId }),
};
