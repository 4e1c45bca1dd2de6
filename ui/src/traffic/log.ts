// One server's traffic as the UI holds it: a plain array that only grows, appended in place.
// Nothing here copies the array on a live batch; `version` changes whenever something a list
// shows changed (rows, flags), so views re-render by watching one number.
import type { Flag } from "../bindings/Flag";
import type { FrameRow } from "../bindings/FrameRow";
import { RoundIndex } from "./rounds";

export class TrafficLog {
  /** In record order, seq strictly increasing. Never copied on append. */
  rows: FrameRow[] = [];
  /** seq → flags raised on that frame (flags may arrive before or after their frame). */
  readonly flags = new Map<number, Flag[]>();
  /** Frames off their revision's schema (the engine's protocol checks). */
  readonly schemaViolations = new Set<number>();
  /** Bumped when a frame joins `schemaViolations` (what a status filter watches). */
  schemaVersion = 0;
  /** Frames recorded but not checked: the checks fell behind. */
  notChecked = 0;
  /** Which frames are rounds of a multi round-trip call. */
  rounds = new RoundIndex();
  /** Bumped on every change a view can see. */
  version = 0;

  get lastSeq(): number {
    const last = this.rows[this.rows.length - 1];
    return last ? last.seq : 0;
  }

  /**
   * Appends the rows of a live `frames` event, in order, skipping any whose seq is not past
   * the last one held (already fetched by a catch-up). Returns how many were appended.
   */
  append(batch: readonly FrameRow[]): number {
    let last = this.lastSeq;
    let added = 0;
    for (const row of batch) {
      if (row.seq > last) {
        this.rows.push(row);
        this.rounds.add(row);
        last = row.seq;
        added += 1;
      }
    }
    if (added > 0) this.version += 1;
    return added;
  }

  /**
   * Merges rows fetched with `traffic_rows` (a catch-up) with what live events already
   * brought: the result is ordered by seq with no duplicates. Appends in place when the
   * fetched rows are all newer; otherwise rebuilds the array once.
   */
  merge(fetched: readonly FrameRow[]): number {
    if (fetched.length === 0) return 0;
    const first = fetched[0];
    if (first !== undefined && first.seq > this.lastSeq && isAscending(fetched)) {
      return this.append(fetched);
    }
    const bySeq = new Map<number, FrameRow>();
    for (const row of this.rows) bySeq.set(row.seq, row);
    const before = bySeq.size;
    for (const row of fetched) if (!bySeq.has(row.seq)) bySeq.set(row.seq, row);
    const added = bySeq.size - before;
    if (added > 0) {
      this.rows = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
      this.rounds = RoundIndex.of(this.rows);
      this.version += 1;
    }
    return added;
  }

  /** Records a flag; a flag already held for that frame is not added twice. */
  flag(seq: number, flag: Flag): void {
    const list = this.flags.get(seq);
    const key = JSON.stringify(flag);
    if (list) {
      if (list.some((f) => JSON.stringify(f) === key)) return;
      this.flags.set(seq, [...list, flag]);
    } else {
      this.flags.set(seq, [flag]);
    }
    if (flag.kind === "schema_violation" && !this.schemaViolations.has(seq)) {
      this.schemaViolations.add(seq);
      this.schemaVersion += 1;
    }
    if (flag.kind === "not_checked") this.notChecked += flag.frames;
    this.version += 1;
  }
}

function isAscending(rows: readonly FrameRow[]): boolean {
  for (let i = 1; i < rows.length; i += 1) {
    const prev = rows[i - 1];
    const row = rows[i];
    if (prev === undefined || row === undefined || row.seq <= prev.seq) return false;
  }
  return true;
}
