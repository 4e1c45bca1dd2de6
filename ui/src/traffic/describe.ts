// Words for verdicts and flags.
import type { Flag } from "../bindings/Flag";
import type { FrameKind } from "../bindings/FrameKind";
import type { Verdict } from "../bindings/Verdict";

const id = (value: number | string | null) => (value === null ? "null" : JSON.stringify(value));

export function describeFlag(flag: Flag): string {
  switch (flag.kind) {
    case "unknown_response_id":
      return `Response to an id nobody sent (${id(flag.id)})`;
    case "duplicate_response":
      return `Second response to request ${id(flag.id)} (the first one won)`;
    case "late_response":
      return `Response to request ${id(flag.id)} after Periscope ${flag.gave_up === "timed_out" ? "timed out" : "cancelled it"}`;
    case "oversized":
      return `Bigger than the size limit; only the first ${flag.limit} bytes were kept`;
    case "unsupported_protocol_version":
      return `The server answered with protocol version ${flag.version}, which Periscope does not speak`;
    case "undeclared_capability":
      return `The server used ${flag.method}, a capability Periscope did not declare`;
    case "invalid_user_frame":
      return "Sent as typed, but not valid JSON-RPC";
    case "session_expired":
      return "The server forgot the HTTP session (404); Periscope started a new one";
    case "unexpected_content_type":
      return `Came over HTTP as ${flag.content_type}, not application/json`;
    case "send_stalled":
      return flag.unsent_bytes === flag.total_bytes
        ? `Never left: the server was not reading (${flag.total_bytes} bytes)`
        : `The server stopped reading it: ${flag.unsent_bytes} of ${flag.total_bytes} bytes unsent`;
    case "too_many_server_requests":
      return `Refused: ${flag.limit} requests from the server were already being answered`;
    case "incomplete":
      return flag.cut === "stream_ended"
        ? "Incomplete: the stream ended in the middle of it"
        : "Incomplete: it arrived slower than the time limit and was cut";
  }
}

export function describeVerdict(verdict: Verdict): string {
  switch (verdict.kind) {
    case "not_utf8":
      return `Not UTF-8 (valid up to byte ${verdict.valid_up_to})`;
    case "not_json":
      return `Not JSON: ${verdict.error}`;
    case "not_json_rpc":
      return `Not JSON-RPC: ${verdict.reason}`;
    case "request":
      return `Request ${id(verdict.id)}: ${verdict.method}`;
    case "notification":
      return `Notification: ${verdict.method}`;
    case "response":
      return `${verdict.is_error ? "Error response" : "Response"} to ${id(verdict.id)}`;
    case "batch":
      return `Batch of ${verdict.items.length}: ${verdict.items.map(describeVerdict).join("; ")}`;
  }
}

export const KIND_LABELS: Record<FrameKind, string> = {
  request: "request",
  notification: "notify",
  response: "response",
  error_response: "error",
  batch: "batch",
  malformed: "malformed",
};
