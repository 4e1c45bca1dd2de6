// Words for verdicts and flags, in the current language (called at render).
import type { Flag } from "../bindings/Flag";
import type { EntryKind } from "../bindings/EntryKind";
import type { Refusal } from "../bindings/Refusal";
import type { Verdict } from "../bindings/Verdict";
import i18n from "../i18n";
import { describeRefusal as describeSkillRefusal } from "../skills/describe";

const id = (value: number | string | null) => (value === null ? "null" : JSON.stringify(value));

export function describeFlag(flag: Flag): string {
  switch (flag.kind) {
    case "unknown_response_id":
      return i18n.t("traffic:flag.unknownResponseId", { id: id(flag.id) });
    case "unknown_subscription_id":
      return i18n.t("traffic:flag.unknownSubscriptionId", { id: flag.id });
    case "duplicate_response":
      return i18n.t("traffic:flag.duplicateResponse", { id: id(flag.id) });
    case "late_response":
      return flag.gave_up === "timed_out"
        ? i18n.t("traffic:flag.lateAfterTimeout", { id: id(flag.id) })
        : i18n.t("traffic:flag.lateAfterCancel", { id: id(flag.id) });
    case "oversized":
      return i18n.t("traffic:flag.oversized", { limit: flag.limit });
    case "unsupported_protocol_version":
      return i18n.t("traffic:flag.unsupportedVersion", { version: flag.version });
    case "undeclared_capability":
      return i18n.t("traffic:flag.undeclaredCapability", { method: flag.method });
    case "invalid_user_frame":
      return i18n.t("traffic:flag.invalidUserFrame");
    case "session_expired":
      return i18n.t("traffic:flag.sessionExpired");
    case "unexpected_content_type":
      return i18n.t("traffic:flag.unexpectedContentType", { contentType: flag.content_type });
    case "send_stalled":
      return flag.unsent_bytes === flag.total_bytes
        ? i18n.t("traffic:flag.neverLeft", { total: flag.total_bytes })
        : i18n.t("traffic:flag.stalled", { unsent: flag.unsent_bytes, total: flag.total_bytes });
    case "too_many_server_requests":
      return i18n.t("traffic:flag.tooManyServerRequests", { limit: flag.limit });
    case "skill_refused":
      return i18n.t("skills:traffic.refused", { uri: flag.uri, why: describeSkillRefusal(flag.refusal) });
    case "app_problem":
      return i18n.t("mcpApps:traffic.appProblem", { problem: flag.problem });
    case "incomplete":
      return flag.cut === "stream_ended"
        ? i18n.t("traffic:flag.incompleteStreamEnded")
        : i18n.t("traffic:flag.incompleteTooSlow");
    case "stream_broke":
      return flag.reissued_as === null
        ? i18n.t("traffic:flag.streamBroke")
        : i18n.t("traffic:flag.streamBrokeReissued", { id: id(flag.reissued_as) });
    case "schema_violation":
      return i18n.t("traffic:flag.schemaViolation", { count: flag.violations.length, revision: flag.revision });
    case "reused_request_id":
      return i18n.t("traffic:flag.reusedRequestId", { id: id(flag.id), first: flag.first_seq });
    case "not_checked":
      return i18n.t("traffic:flag.notChecked", { count: flag.frames });
    case "url_refused":
      return i18n.t("traffic:flag.urlRefused", {
        role: i18n.t(`traffic:role.${flag.refused.role}`),
        url: flag.refused.url,
        reason: describeRefusal(flag.refused.refusal),
      });
  }
}

// The engine's words (net_guard.rs), for a refusal shown in the traffic list.
function describeRefusal(refusal: Refusal): string {
  switch (refusal.reason) {
    case "not_a_url":
      return i18n.t("traffic:refusal.notAUrl", { error: refusal.error });
    case "scheme":
      return i18n.t("traffic:refusal.scheme", { scheme: refusal.scheme });
    case "plain_http":
      return i18n.t("traffic:refusal.plainHttp");
    case "address": {
      const network = i18n.t(`traffic:addressClass.${refusal.class}`);
      return refusal.address
        ? i18n.t("traffic:refusal.addressResolved", { host: refusal.host, address: refusal.address, network })
        : i18n.t("traffic:refusal.address", { host: refusal.host, network });
    }
    case "cross_origin":
      return i18n.t("traffic:refusal.crossOrigin", { origin: refusal.origin, expected: refusal.expected });
    case "issuer_mismatch":
      return refusal.document === null
        ? i18n.t("traffic:refusal.issuerMissing", { expected: refusal.expected })
        : i18n.t("traffic:refusal.issuerMismatch", { issuer: refusal.document, expected: refusal.expected });
    case "bearer_over_plain_http":
      return i18n.t("traffic:refusal.bearerOverPlainHttp", { host: refusal.host });
  }
}

export function describeVerdict(verdict: Verdict): string {
  switch (verdict.kind) {
    case "not_utf8":
      return i18n.t("traffic:verdict.notUtf8", { validUpTo: verdict.valid_up_to });
    case "not_json":
      return i18n.t("traffic:verdict.notJson", { error: verdict.error });
    case "not_json_rpc":
      return i18n.t("traffic:verdict.notJsonRpc", { reason: verdict.reason });
    case "request":
      return i18n.t("traffic:verdict.request", { id: id(verdict.id), method: verdict.method });
    case "notification":
      return i18n.t("traffic:verdict.notification", { method: verdict.method });
    case "response":
      return verdict.is_error
        ? i18n.t("traffic:verdict.errorResponse", { id: id(verdict.id) })
        : i18n.t("traffic:verdict.response", { id: id(verdict.id) });
    case "batch":
      return i18n.t("traffic:verdict.batch", {
        n: verdict.items.length,
        items: verdict.items.map(describeVerdict).join(i18n.t("traffic:verdict.separator")),
      });
  }
}

/** The kind badge of a row: `request`, `notify`, `response`, `error`, `batch`, `malformed`. */
export function kindLabel(kind: EntryKind): string {
  return i18n.t(`traffic:kind.${kind}`);
}
