import type { TrafficRow } from "../bindings/TrafficRow";

/** A traffic row for tests; only what a test cares about needs giving. */
export function row(seq: number, extra: Partial<TrafficRow> = {}): TrafficRow {
  return {
    seq,
    direction: seq % 2 === 1 ? "out" : "in",
    wall_us: 1_700_000_000_000_000 + seq * 1000,
    mono_us: seq * 1000,
    size: 100,
    kind: seq % 2 === 1 ? "request" : "response",
    method: "tools/call",
    id: String(seq),
    latency_us: seq % 2 === 1 ? null : 1500,
    problem: null,
    preview: `{"jsonrpc":"2.0","id":${seq}}`,
    call: null,
    status: { error: false, malformed: false, late: false, unknown_id: false, flagged: false, schema_violation: false },
    flags: [],
    round: null,
    app_view: null,
    ...extra,
  };
}
