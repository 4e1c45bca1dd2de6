// What the user does with recordings: open a record file, save a server's session as one,
// close a reopened one. Failures and outcomes are told in toasts.
import { showRecording } from "../actions/recordings";
import { notify } from "../feedback/toasts";
import i18n from "../i18n";
import { errorMessage, recordingsIpc } from "../ipc";
import { connections, select } from "../state/connections";
import { dropRecording } from "../state/recordings";

/** File → Open: the user picks a record file; it opens read-only and is shown. */
export async function openRecordingFile(): Promise<void> {
  try {
    const info = await recordingsIpc.openRecording(null);
    if (info) await showRecording(info);
  } catch (error) {
    notify.error(i18n.t("recordings:openFailed", { error: errorMessage(error) }));
  }
}

/** "Save session…": the server's record written as a record file where the user picks. */
export async function saveSession(serverId: string): Promise<void> {
  try {
    const path = await recordingsIpc.saveSession(serverId);
    if (path) notify.success(i18n.t("recordings:saved", { path }));
  } catch (error) {
    notify.error(i18n.t("recordings:saveFailed", { error: errorMessage(error) }));
  }
}

export async function closeRecording(id: string): Promise<void> {
  try {
    await recordingsIpc.closeRecording(id);
  } catch (error) {
    notify.error(errorMessage(error));
  }
  dropRecording(id);
  if (connections.getState().selectedId === id) select(connections.getState().catalog[0]?.id ?? null);
}
