// One server's console: its stderr lines and the notifications it sent, in arrival order.
// Like the traffic log, an array appended in place with a version number for views.
import type { ServerNotification } from "../bindings/ServerNotification";
import type { StderrLine } from "../bindings/StderrLine";
import type { JsonValue } from "../bindings/serde_json/JsonValue";

export type ConsoleEntry =
  | { kind: "stderr"; key: string; wallUs: number; seq: number; text: string }
  | {
      kind: "log";
      key: string;
      wallUs: number;
      level: string;
      logger: string | null;
      data: JsonValue;
    }
  /** A notification other than a log message, or (null) the start of a new connection; its
   * words are made when shown (console/describe.ts), in the language of the moment. */
  | { kind: "event"; key: string; wallUs: number; notification: ServerNotification | null }
  /** Log messages the app held back from the live console in a flood (more than `perSecond`
   * in a second); each is in the record (Traffic). */
  | { kind: "held"; key: string; wallUs: number; count: number; perSecond: number };

/** The console keeps at most this many entries; older ones are dropped in chunks. */
export const CONSOLE_LIMIT = 20_000;
const DROP_CHUNK = 5_000;

let nextKey = 0;
const freshKey = (prefix: string) => `${prefix}${(nextKey += 1)}`;

export class ConsoleLog {
  entries: ConsoleEntry[] = [];
  version = 0;
  /** How many old entries were dropped to stay under the limit. */
  dropped = 0;
  /** How many log messages the app held back from the live feed in all (floods), and the
   * rate past which it does. */
  held = 0;
  heldPerSecond = 0;
  private stderrSeqs = new Set<number>();

  /** Adds live stderr lines (a line already held, by seq, is skipped). */
  addStderr(lines: readonly StderrLine[]): number {
    let added = 0;
    for (const line of lines) {
      if (this.stderrSeqs.has(line.seq)) continue;
      this.stderrSeqs.add(line.seq);
      this.entries.push(stderrEntry(line));
      added += 1;
    }
    if (added > 0) this.changed();
    return added;
  }

  /** Merges stderr lines fetched with `stderr_lines` into what live events already brought. */
  mergeStderr(lines: readonly StderrLine[]): number {
    const missing = lines.filter((line) => !this.stderrSeqs.has(line.seq));
    if (missing.length === 0) return 0;
    for (const line of missing) this.stderrSeqs.add(line.seq);
    const merged = [...this.entries, ...missing.map(stderrEntry)];
    // Stable sort: entries with the same time keep their order.
    merged.sort((a, b) => a.wallUs - b.wallUs);
    this.entries = merged;
    this.changed();
    return missing.length;
  }

  /** A new connection starts: its stderr seqs start again from 1. */
  newSession(wallUs: number): void {
    this.stderrSeqs.clear();
    if (this.entries.length > 0) {
      this.entries.push({ kind: "event", key: freshKey("c"), wallUs, notification: null });
      this.changed();
    }
  }

  addNotification(notification: ServerNotification, wallUs: number): void {
    this.entries.push(notificationEntry(notification, wallUs));
    this.changed();
  }

  /** Says where log messages were held back from the live feed (a flood). */
  addHeld(count: number, perSecond: number, wallUs: number): void {
    this.entries.push({ kind: "held", key: freshKey("h"), wallUs, count, perSecond });
    this.held += count;
    this.heldPerSecond = perSecond;
    this.changed();
  }

  private changed(): void {
    if (this.entries.length > CONSOLE_LIMIT + DROP_CHUNK) {
      const drop = this.entries.length - CONSOLE_LIMIT;
      this.entries.splice(0, drop);
      this.dropped += drop;
    }
    this.version += 1;
  }
}

function stderrEntry(line: StderrLine): ConsoleEntry {
  return { kind: "stderr", key: `s${line.seq}`, wallUs: line.wall_us, seq: line.seq, text: line.text };
}

function notificationEntry(n: ServerNotification, wallUs: number): ConsoleEntry {
  if (n.kind === "log") {
    return {
      kind: "log",
      key: freshKey("l"),
      wallUs,
      level: n.level,
      logger: n.logger,
      data: n.data,
    };
  }
  return { kind: "event", key: freshKey("e"), wallUs, notification: n };
}
