// Words for verdicts and flags.
import type { Flag } from "../bindings/Flag";
import type { FrameKind } from "../bindings/FrameKind";
import type { Refusal } from "../bindings/Refusal";
import type { UrlRole } from "../bindings/UrlRole";
import type { Verdict } from "../bindings/Verdict";

const id = (value: number | string | null) => (value === null ? "null" : JSON.stringify(value));

export function describeFlag(flag: Flag): string {
  switch (flag.kind) {
    case "unknown_response_id":
      return `Response to an id nobody sent (${id(flag.id)})`;
    case "unknown_subscription_id":
      return `Notification tagged with subscription id ${flag.id}, which names no listen stream Periscope opened`;
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
    case "stream_broke":
      return flag.reissued_as === null
        ? "Its response stream broke before the response (2026-07-28 streams are not resumed); not sent again"
        : `Its response stream broke before the response (2026-07-28 streams are not resumed); re-issued as request ${id(flag.reissued_as)}`;
    case "url_refused":
      return `Refused the ${ROLE_LABELS[flag.refused.role]} ${flag.refused.url}: ${describeRefusal(flag.refused.refusal)}`;
  }
}

const ROLE_LABELS: Record<UrlRole, string> = {
  mcp_server: "MCP server",
  resource_metadata: "protected resource metadata URL",
  authorization_server: "authorization server",
  authorization_server_metadata: "authorization server metadata",
  authorization_endpoint: "authorization endpoint",
  token_endpoint: "token endpoint",
  registration_endpoint: "registration endpoint",
  idp_token_endpoint: "identity provider's token endpoint",
  legacy_endpoint: "legacy HTTP+SSE endpoint",
};

// The engine's words (net_guard.rs), for a refusal shown in the traffic list.
function describeRefusal(refusal: Refusal): string {
  switch (refusal.reason) {
    case "not_a_url":
      return `not a URL (${refusal.error})`;
    case "scheme":
      return `scheme "${refusal.scheme}" is not http(s)`;
    case "plain_http":
      return "plain http is allowed only for loopback hosts";
    case "address":
      return `${refusal.host} is ${refusal.address ? `${refusal.address}, ` : ""}${refusal.class.replaceAll("_", " ")}, and the MCP server is not`;
    case "cross_origin":
      return `on another origin (${refusal.origin}, not ${refusal.expected})`;
    case "issuer_mismatch":
      return `the document's issuer is ${refusal.document ?? "missing"}, not ${refusal.expected}`;
    case "bearer_over_plain_http":
      return `a bearer token would cross the network in clear to ${refusal.host}`;
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
