// Multi round-trip calls (MCP 2026-07-28) in the traffic list. The engine links each request
// it sent again after `input_required` (and its response) to the call's first request
// (`FrameRow.call`); the first request and the responses that asked for input were listed
// before anyone knew, and the later rounds name them. This index gathers both, so every frame
// of a call can say which round it is.
import type { FrameRow } from "../bindings/FrameRow";
import i18n from "../i18n";

/** Where one frame stands in a call: round 1 is the first request. */
export interface RoundMark {
  firstSeq: number;
  round: number;
}

export class RoundIndex {
  private readonly marks = new Map<number, RoundMark>();
  /** first request's seq → rounds seen so far. */
  private readonly counts = new Map<number, number>();

  static of(rows: readonly FrameRow[]): RoundIndex {
    const index = new RoundIndex();
    for (const row of rows) index.add(row);
    return index;
  }

  /** Learns what `row` says about a call, if anything. */
  add(row: FrameRow): void {
    const call = row.call;
    if (call === null) return;
    const firstSeq = call.first_seq;
    this.marks.set(row.seq, { firstSeq, round: call.round });
    // The response that asked for this round's inputs answered the round before.
    this.marks.set(call.asked_by, { firstSeq, round: call.round - 1 });
    this.marks.set(firstSeq, { firstSeq, round: 1 });
    this.counts.set(firstSeq, Math.max(this.counts.get(firstSeq) ?? 1, call.round));
  }

  mark(seq: number): RoundMark | undefined {
    return this.marks.get(seq);
  }

  /** Rounds of the call `firstSeq` began, as far as the list knows. */
  rounds(firstSeq: number): number {
    return this.counts.get(firstSeq) ?? 1;
  }

  /** The chip a frame's row shows (in the current language), or null when it belongs to no multi round-trip call. */
  label(seq: number): string | null {
    const mark = this.marks.get(seq);
    if (!mark) return null;
    if (seq === mark.firstSeq) return i18n.t("traffic:round.call", { count: this.rounds(mark.firstSeq) });
    return i18n.t("traffic:round.of", { round: mark.round, first: mark.firstSeq });
  }
}
