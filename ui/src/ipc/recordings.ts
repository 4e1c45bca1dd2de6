// Recordings: a session saved as a record file, a record file reopened read-only.
import { invoke } from "@tauri-apps/api/core";
import type { RecordingInfo } from "../bindings/RecordingInfo";

export const recordingsIpc = {
  /** Saves a server's record as a record file where the user picks; the path, or null if cancelled. */
  saveSession: (serverId: string) => invoke<string | null>("save_session", { serverId }),
  /** Opens `path`, or the file the user picks when null; null if cancelled. */
  openRecording: (path: string | null) => invoke<RecordingInfo | null>("open_recording", { path }),
  recordingsList: () => invoke<RecordingInfo[]>("recordings_list"),
  closeRecording: (id: string) => invoke<void>("close_recording", { id }),
};
