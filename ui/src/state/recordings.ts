// Recordings reopened read-only (File → Open): their descriptions, as the Rust side returned
// them. Their traffic, network and console live in the traffic and logs managers under the
// recording's id, like a server's; their ids start with RECORDING_PREFIX.
import type { RecordingInfo } from "../bindings/RecordingInfo";
import { Notifier, useNotifier } from "./notifier";

/** What a recording's id starts with (src-tauri/src/recordings.rs `ID_PREFIX`). */
export const RECORDING_PREFIX = "recording:";

export const isRecordingId = (id: string | null | undefined): boolean => Boolean(id?.startsWith(RECORDING_PREFIX));

export interface RecordingsState {
  list: RecordingInfo[];
}

export const recordings = new Notifier<RecordingsState>({ list: [] });

export const useRecordings = <T>(selector: (state: RecordingsState) => T): T => useNotifier(recordings, selector);

export function setRecordings(list: RecordingInfo[]): void {
  recordings.update(() => ({ list }));
}

/** Adds or replaces one (the same file opened again). */
export function putRecording(info: RecordingInfo): void {
  recordings.update((state) => {
    const at = state.list.findIndex((r) => r.id === info.id);
    const list = at === -1 ? [...state.list, info] : state.list.map((r, i) => (i === at ? info : r));
    return { list };
  });
}

export function dropRecording(id: string): void {
  recordings.update((state) => ({ list: state.list.filter((r) => r.id !== id) }));
}
