// What the user does in the Load view: prepare a run (its summary shown for confirmation), send
// it or not, stop it, show a kept run, compare it with another, delete it, and open its
// requests (the first session's record) in Traffic or on the Timeline.
import { showRecording } from "../actions/recordings";
import { setTab } from "../actions/view";
import type { LoadExport } from "../bindings/LoadExport";
import type { LoadRun } from "../bindings/LoadRun";
import { notify } from "../feedback/toasts";
import i18n from "../i18n";
import { errorMessage, loadIpc, recordingsIpc } from "../ipc";
import { applyProgress, changeLoad, emptyLive, loads } from "../state/load";
import { toOptions } from "../state/loadPlan";

const current = (serverId: string) => loads.getState().servers[serverId];

/** The server's kept runs, read once per server; the newest is shown. */
export async function loadRuns(serverId: string): Promise<void> {
  if (current(serverId)?.loaded) return;
  try {
    const runs = await loadIpc.loadRuns(serverId);
    changeLoad(serverId, (s) => ({ ...s, runs, loaded: true }));
    const newest = runs[0];
    if (newest && !current(serverId)?.shown) await showRun(serverId, newest.id);
  } catch (error) {
    changeLoad(serverId, (s) => ({ ...s, loaded: true, error: errorMessage(error) }));
  }
}

/** Checks the form, opens the run's first session and shows what it will send. */
export async function prepareLoad(serverId: string): Promise<void> {
  const state = current(serverId);
  if (!state || state.phase !== "idle") return;
  const asked = toOptions(state.form);
  if ("problem" in asked) {
    changeLoad(serverId, (s) => ({ ...s, error: i18n.t(`load:problem.${asked.problem}`) }));
    return;
  }
  changeLoad(serverId, (s) => ({ ...s, phase: "preparing", error: null }));
  try {
    const summary = await loadIpc.loadPrepare(serverId, asked.options);
    changeLoad(serverId, (s) => ({ ...s, phase: "confirming", summary }));
  } catch (error) {
    changeLoad(serverId, (s) => ({ ...s, phase: "idle", error: errorMessage(error) }));
  }
}

/** The user did not confirm: nothing is sent and the first session closes. */
export async function discardLoad(serverId: string): Promise<void> {
  changeLoad(serverId, (s) => ({ ...s, phase: "idle", summary: null }));
  try {
    await loadIpc.loadDiscard(serverId);
  } catch (error) {
    notify.error(errorMessage(error));
  }
}

/** The user confirmed the summary: the run goes, its figures arrive once a second. */
export async function startLoad(serverId: string): Promise<void> {
  if (current(serverId)?.phase !== "confirming") return;
  changeLoad(serverId, (s) => ({ ...s, phase: "running", summary: null, live: emptyLive(), error: null }));
  try {
    const run = await loadIpc.loadStart(serverId, (p) =>
      changeLoad(serverId, (s) => (s.live ? { ...s, live: applyProgress(s.live, p) } : s), true),
    );
    changeLoad(serverId, (s) => ({ ...s, phase: "idle", live: null, shown: run, baseline: null, comparison: null }));
    await refreshRuns(serverId);
  } catch (error) {
    changeLoad(serverId, (s) => ({ ...s, phase: "idle", live: null, error: errorMessage(error) }));
  }
}

export async function stopLoad(serverId: string): Promise<void> {
  try {
    await loadIpc.loadStop(serverId);
  } catch (error) {
    notify.error(errorMessage(error));
  }
}

async function refreshRuns(serverId: string): Promise<void> {
  try {
    const runs = await loadIpc.loadRuns(serverId);
    changeLoad(serverId, (s) => ({ ...s, runs, loaded: true }));
  } catch (error) {
    notify.error(errorMessage(error));
  }
}

export async function showRun(serverId: string, runId: string): Promise<void> {
  try {
    const run = await loadIpc.loadGet(serverId, runId);
    changeLoad(serverId, (s) => ({ ...s, shown: run, baseline: null, comparison: null }));
  } catch (error) {
    notify.error(errorMessage(error));
  }
}

/** Compares the shown run with a kept one (the kept one as before); null stops comparing. */
export async function compareWith(serverId: string, baseline: string | null): Promise<void> {
  const shown = current(serverId)?.shown;
  if (!shown || baseline === null) {
    changeLoad(serverId, (s) => ({ ...s, baseline: null, comparison: null }));
    return;
  }
  try {
    const comparison = await loadIpc.loadCompare(serverId, baseline, shown.id, null);
    changeLoad(serverId, (s) => ({ ...s, baseline, comparison }));
  } catch (error) {
    notify.error(errorMessage(error));
  }
}

export async function deleteRun(serverId: string, runId: string): Promise<void> {
  try {
    const runs = await loadIpc.loadDelete(serverId, runId);
    const wasShown = current(serverId)?.shown?.id === runId;
    changeLoad(serverId, (s) => ({
      ...s,
      runs,
      shown: wasShown ? null : s.shown,
      baseline: s.baseline === runId ? null : s.baseline,
      comparison: s.baseline === runId ? null : s.comparison,
    }));
    // The newest left is shown in its place.
    const newest = runs[0];
    if (wasShown && newest) await showRun(serverId, newest.id);
  } catch (error) {
    notify.error(errorMessage(error));
  }
}

export async function exportRun(serverId: string, runId: string, format: LoadExport): Promise<void> {
  try {
    const path = await loadIpc.loadExport(serverId, runId, format);
    if (path) notify.success(i18n.t("load:export.saved", { path }));
  } catch (error) {
    notify.error(i18n.t("load:export.failed", { error: errorMessage(error) }));
  }
}

/** Opens the run's first session's record (read-only, like a recording) in Traffic or on the Timeline. */
export async function openRequests(run: LoadRun, tab: "traffic" | "timeline"): Promise<void> {
  const sample = run.report.sample;
  if (!sample) return;
  try {
    const info = await recordingsIpc.openRecording(sample.record);
    if (!info) return;
    await showRecording(info);
    setTab(info.id, tab);
  } catch (error) {
    notify.error(i18n.t("load:openFailed", { error: errorMessage(error) }));
  }
}
