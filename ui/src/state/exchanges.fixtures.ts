import type { HttpExchange } from "../bindings/HttpExchange";

/** An HTTP exchange for tests; only what a test cares about needs giving. */
export function exchange(seq: number, extra: Partial<HttpExchange> = {}): HttpExchange {
  return {
    seq,
    wall_us: 1_700_000_000_000_000 + seq * 1000,
    mono_us: seq * 1000,
    method: "POST",
    url: "https://example.com/mcp?x=1",
    status: 200,
    error: null,
    request_headers: [
      ["content-type", "application/json"],
      ["authorization", "[redacted]"],
    ],
    response_headers: [["content-type", "text/event-stream"]],
    duration_us: 12_345,
    sent_frame: seq,
    ...extra,
  };
}
