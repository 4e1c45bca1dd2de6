// The recordings the app has open, shown like servers (their record read through the same
// commands). What the user does with a recording (open, save, close) is recordings/actions.ts.
import type { RecordingInfo } from "../bindings/RecordingInfo";
import i18n from "../i18n";
import { errorMessage, recordingsIpc } from "../ipc";
import { addAppError, select, updateServer } from "../state/connections";
import { putRecording, recordings, setRecordings } from "../state/recordings";
import { catchUp } from "./connections";

/** The recordings the app has open; one the UI did not know yet (from the command line) is shown. */
export async function loadRecordings(): Promise<void> {
  try {
    const list = await recordingsIpc.recordingsList();
    const known = new Set(recordings.getState().list.map((r) => r.id));
    setRecordings(list);
    for (const info of list) if (!known.has(info.id)) await showRecording(info);
  } catch (error) {
    addAppError(i18n.t("state:recordingsFailed", { error: errorMessage(error) }));
  }
}

/**
 * A recording opened: listed, selected, and its record read like a server's (its id names it
 * to the record commands), so the Traffic, Network and Console tabs work on it.
 */
export async function showRecording(info: RecordingInfo): Promise<void> {
  putRecording(info);
  updateServer(info.id, (server) => server);
  select(info.id);
  await catchUp(info.id);
}
