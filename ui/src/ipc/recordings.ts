// Recordings: a session saved as a record file, a record file reopened read-only.
import { invoke } from "@tauri-apps/api/core";
import type { CompareSide } from "../bindings/CompareSide";
import type { RecordingInfo } from "../bindings/RecordingInfo";
import type { ReplayReport } from "../bindings/ReplayReport";
import type { ResendOutcome } from "../bindings/ResendOutcome";
import type { SurfaceDiff } from "../bindings/SurfaceDiff";

export const recordingsIpc = {
  /** Saves a server's record as a record file where the user picks; the path, or null if cancelled. */
  saveSession: (serverId: string) => invoke<string | null>("save_session", { serverId }),
  /** Opens `path`, or the file the user picks when null; null if cancelled. */
  openRecording: (path: string | null) => invoke<RecordingInfo | null>("open_recording", { path }),
  recordingsList: () => invoke<RecordingInfo[]>("recordings_list"),
  closeRecording: (id: string) => invoke<void>("close_recording", { id }),
};

export const resendIpc = {
  /** Sends `text` exactly as given to a connected server; its answers (and the frame's seq). */
  resendFrame: (serverId: string, text: string) => invoke<ResendOutcome>("resend_frame", { serverId, text }),
  /** Replays a recording's client messages against a connected server. */
  replayRecording: (recordingId: string, serverId: string, ignore: string[]) =>
    invoke<ReplayReport>("replay_recording", { recordingId, serverId, ignore }),
  /** Compares what the server showed of itself on two sides (servers or recordings). */
  compareSessions: (before: CompareSide, after: CompareSide) => invoke<SurfaceDiff>("compare_sessions", { before, after }),
};
