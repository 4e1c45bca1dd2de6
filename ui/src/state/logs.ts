// Logs: each server's console, its stderr lines and the notifications it sent, in arrival
// order (consoleLog.ts, appended in place with a version number). It outlives connections:
// a new session only draws a line in it.
import type { ServerNotification } from "../bindings/ServerNotification";
import type { StderrLine } from "../bindings/StderrLine";
import { ConsoleLog } from "./consoleLog";
import { onSessionStart } from "./connections";
import { Notifier, useNotifier } from "./notifier";

export type LogsState = Record<string, ConsoleLog>;

export const logs = new Notifier<LogsState>({});

export const useLogs = <T>(selector: (state: LogsState) => T): T => useNotifier(logs, selector);

/** One server's console (made on first use). */
export function serverConsole(id: string): ConsoleLog {
  const existing = logs.getState()[id];
  if (existing) return existing;
  const made = new ConsoleLog();
  logs.updateSoon((state) => ({ ...state, [id]: made }));
  return made;
}

const EMPTY = new ConsoleLog();
/** One server's console for a view, and its version (re-renders as it grows). */
export function useServerConsole(id: string): { log: ConsoleLog; version: number } {
  const log = useLogs((s) => s[id] ?? EMPTY);
  const version = useLogs((s) => s[id]?.version ?? 0);
  return { log, version };
}

export function addStderr(id: string, lines: StderrLine[]): void {
  serverConsole(id).addStderr(lines);
  logs.changedSoon();
}

export function addNotification(id: string, notification: ServerNotification, wallUs: number): void {
  serverConsole(id).addNotification(notification, wallUs);
  logs.changedSoon();
}

/** The app held back `count` log messages of a flood from the live feed. */
export function addLogsHeld(id: string, count: number, perSecond: number, wallUs: number): void {
  serverConsole(id).addHeld(count, perSecond, wallUs);
  logs.changedSoon();
}

/** The views hear on the next frame that a console grew in place (catching up). */
export const logsChanged = (): void => logs.changedSoon();

onSessionStart((id, wallUs) => {
  serverConsole(id).newSession(wallUs);
  logs.changedSoon();
});

/** For tests: forget everything. */
export function resetLogs(): void {
  logs.update(() => ({}));
}
