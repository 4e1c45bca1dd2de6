// What the user does in the Evals view: read, edit and save the server's suite, make a starter
// suite from its tools, run the suite (repetitions counted as they end) and stop it, show a kept
// run, open a case to its repetitions and a repetition to its trace, compare with an earlier
// run, delete a run.
import { notify } from "../feedback/toasts";
import i18n from "../i18n";
import { setTab } from "../actions/view";
import type { EvalExport } from "../bindings/EvalExport";
import { errorMessage, evalsIpc } from "../ipc";
import { applyProgress, changeEvals, evals, toRequest, type OpenCase } from "../state/evals";

const current = (serverId: string) => evals.getState().servers[serverId];

/** The server's suite and kept runs, read once per server; the newest run is shown. */
export async function ensureEvals(serverId: string): Promise<void> {
  if (current(serverId)?.loaded) return;
  changeEvals(serverId, (s) => ({ ...s, loaded: true }));
  try {
    const [text, runs] = await Promise.all([evalsIpc.evalsSuite(serverId), evalsIpc.evalsRuns(serverId)]);
    const check = text === null ? null : await evalsIpc.evalsSuiteSave(serverId, text);
    changeEvals(serverId, (s) => ({ ...s, text: text ?? "", check, runs }));
    const newest = runs[0];
    if (newest && !current(serverId)?.shown) await showRun(serverId, newest.id);
  } catch (error) {
    changeEvals(serverId, (s) => ({ ...s, text: s.text ?? "", error: errorMessage(error) }));
  }
}

/** The suite as the user types it (saved on blur or Save). */
export function editSuite(serverId: string, text: string): void {
  changeEvals(serverId, (s) => ({ ...s, text }));
}

/** Keeps the suite as typed and reads what it holds. */
export async function saveSuite(serverId: string): Promise<void> {
  const text = current(serverId)?.text;
  if (text === null || text === undefined) return;
  changeEvals(serverId, (s) => ({ ...s, saving: true }));
  try {
    const check = await evalsIpc.evalsSuiteSave(serverId, text);
    changeEvals(serverId, (s) => ({ ...s, saving: false, check }));
  } catch (error) {
    changeEvals(serverId, (s) => ({ ...s, saving: false, error: errorMessage(error) }));
  }
}

/** Replaces the suite with a starter made from the server's tools, and saves it. */
export async function makeStarter(serverId: string): Promise<void> {
  try {
    const text = await evalsIpc.evalsStarter(serverId);
    changeEvals(serverId, (s) => ({ ...s, text }));
    await saveSuite(serverId);
  } catch (error) {
    notify.error(errorMessage(error));
  }
}

/** Saves the suite, then runs it as the form says. */
export async function runEvals(serverId: string): Promise<void> {
  const state = current(serverId);
  if (!state || state.running) return;
  await saveSuite(serverId);
  const asked = toRequest(state.form, current(serverId)?.check ?? null);
  if ("problem" in asked) {
    changeEvals(serverId, (s) => ({ ...s, error: i18n.t(`evals:form.problem.${asked.problem}`) }));
    return;
  }
  changeEvals(serverId, (s) => ({ ...s, running: true, live: { done: 0, total: 0, last: null }, error: null }));
  try {
    const run = await evalsIpc.evalsRun(serverId, asked.request, (p) =>
      changeEvals(serverId, (s) => (s.live ? { ...s, live: applyProgress(s.live, p) } : s), true),
    );
    changeEvals(serverId, (s) => ({ ...s, running: false, live: null, shown: run, open: null, baseline: null, comparison: null }));
    await refreshRuns(serverId);
  } catch (error) {
    changeEvals(serverId, (s) => ({ ...s, running: false, live: null, error: errorMessage(error) }));
  }
}

export async function stopEvals(serverId: string): Promise<void> {
  try {
    await evalsIpc.evalsStop(serverId);
  } catch (error) {
    notify.error(errorMessage(error));
  }
}

async function refreshRuns(serverId: string): Promise<void> {
  try {
    const runs = await evalsIpc.evalsRuns(serverId);
    changeEvals(serverId, (s) => ({ ...s, runs }));
  } catch (error) {
    notify.error(errorMessage(error));
  }
}

/** Shows a kept run; whether it could be read. */
export async function showRun(serverId: string, runId: string): Promise<boolean> {
  try {
    const run = await evalsIpc.evalsGet(serverId, runId);
    changeEvals(serverId, (s) => ({ ...s, shown: run, open: null, baseline: null, comparison: null }));
    return true;
  } catch (error) {
    notify.error(errorMessage(error));
    return false;
  }
}

/** The Evals view with kept run `runId` shown and `open` opened (from a History entry). */
export async function showEvalCase(serverId: string, runId: string, open: OpenCase): Promise<void> {
  await ensureEvals(serverId);
  if (await showRun(serverId, runId)) openCase(serverId, open);
  setTab(serverId, "evals");
}

/** Opens a case of the shown run (or closes it with null). */
export function openCase(serverId: string, open: OpenCase | null): void {
  changeEvals(serverId, (s) => ({ ...s, open }));
}

/** Compares the shown run with a kept one (the kept one as before); null stops comparing. */
export async function compareWith(serverId: string, baseline: string | null): Promise<void> {
  const shown = current(serverId)?.shown;
  if (!shown || baseline === null) {
    changeEvals(serverId, (s) => ({ ...s, baseline: null, comparison: null }));
    return;
  }
  try {
    const comparison = await evalsIpc.evalsCompare(serverId, baseline, shown.id);
    changeEvals(serverId, (s) => ({ ...s, baseline, comparison }));
  } catch (error) {
    notify.error(errorMessage(error));
  }
}

export async function deleteRun(serverId: string, runId: string): Promise<void> {
  try {
    const runs = await evalsIpc.evalsDelete(serverId, runId);
    const wasShown = current(serverId)?.shown?.id === runId;
    changeEvals(serverId, (s) => ({
      ...s,
      runs,
      shown: wasShown ? null : s.shown,
      open: wasShown ? null : s.open,
      baseline: s.baseline === runId ? null : s.baseline,
      comparison: s.baseline === runId ? null : s.comparison,
    }));
    const newest = runs[0];
    if (wasShown && newest) await showRun(serverId, newest.id);
  } catch (error) {
    notify.error(errorMessage(error));
  }
}

/** Writes a kept run to a file the user picks (JSON: a CI baseline; JUnit). */
export async function exportRun(serverId: string, runId: string, format: EvalExport): Promise<void> {
  try {
    const path = await evalsIpc.evalsExport(serverId, runId, format);
    if (path) notify.success(i18n.t("evals:export.saved", { path }));
  } catch (error) {
    notify.error(i18n.t("evals:export.failed", { error: errorMessage(error) }));
  }
}
