// What the user does in the Check view: load the server's last run, run a check, open a
// failure's frame in the check's record, export the report.
import { showRecording } from "../actions/recordings";
import { showFrame } from "../actions/view";
import type { CheckExport } from "../bindings/CheckExport";
import type { CheckReport } from "../bindings/CheckReport";
import type { CheckResult } from "../bindings/CheckResult";
import { notify } from "../feedback/toasts";
import i18n from "../i18n";
import { isProblem } from "../i18n/problem";
import { checkIpc, errorMessage, recordingsIpc } from "../ipc";
import { applyStep, changeCheck, checks, defaultOptions, emptyLive } from "../state/check";

/** The server's last run, read once per server. */
export async function loadLastCheck(serverId: string): Promise<void> {
  if (checks.getState().servers[serverId]?.loaded) return;
  try {
    const last = await checkIpc.checkLast(serverId);
    changeCheck(serverId, (s) => ({ ...s, last: s.last ?? last, loaded: true, options: last?.options ?? s.options }));
  } catch (error) {
    changeCheck(serverId, (s) => ({ ...s, loaded: true, error: errorMessage(error) }));
  }
}

export async function runCheck(serverId: string): Promise<void> {
  const current = checks.getState().servers[serverId];
  if (current?.live) return;
  const options = current?.options ?? defaultOptions();
  changeCheck(serverId, (s) => ({ ...s, live: emptyLive(), error: null }));
  try {
    const run = await checkIpc.checkRun(serverId, options, (step) =>
      changeCheck(serverId, (s) => (s.live ? { ...s, live: applyStep(s.live, step) } : s), true),
    );
    changeCheck(serverId, (s) => ({ ...s, live: null, last: run }));
  } catch (error) {
    // Stopped by the user: said in passing, not as a failure; the last run stays shown.
    const stopped = isProblem(error) && error.kind === "check_cancelled";
    if (stopped) notify.info(errorMessage(error));
    changeCheck(serverId, (s) => ({ ...s, live: null, error: stopped ? null : errorMessage(error) }));
  }
}

export async function cancelCheck(serverId: string): Promise<void> {
  try {
    await checkIpc.checkCancel(serverId);
  } catch (error) {
    notify.error(errorMessage(error));
  }
}

/** The record file that holds a result's frames: its era's, or the first era's for a rule asked once. */
export function recordOf(report: CheckReport, result: CheckResult): string | null {
  const era = result.era === null ? report.eras[0] : report.eras.find((e) => e.era === result.era);
  return era?.record ?? null;
}

/** Opens the check's record (read-only, like a recording) at frame `seq`, in Traffic. */
export async function openCheckFrame(record: string, seq: number): Promise<void> {
  try {
    const info = await recordingsIpc.openRecording(record);
    if (!info) return;
    await showRecording(info);
    showFrame(info.id, seq);
  } catch (error) {
    notify.error(i18n.t("check:openFailed", { error: errorMessage(error) }));
  }
}

export async function exportCheck(serverId: string, format: CheckExport): Promise<void> {
  try {
    const path = await checkIpc.checkExport(serverId, format);
    if (path) notify.success(i18n.t("check:export.saved", { path }));
  } catch (error) {
    notify.error(i18n.t("check:export.failed", { error: errorMessage(error) }));
  }
}
