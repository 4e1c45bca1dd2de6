// A `Problem` (the engine's typed failure, bindings/Problem.ts) in the UI's language: the
// sentence comes from the `problems` namespace by its kind; what a server, the system or a
// library said (a message, a detail, stderr) is interpolated as it came, quoted by the sentence.
import type { TFunction } from "i18next";
import type { Breach } from "../bindings/Breach";
import type { CatalogDamage } from "../bindings/CatalogDamage";
import type { CloseCause } from "../bindings/CloseCause";
import type { HeaderAnnotationError } from "../bindings/HeaderAnnotationError";
import type { LeftOutEntry } from "../bindings/LeftOutEntry";
import type { NotSentWhy } from "../bindings/NotSentWhy";
import type { TlsProblem } from "../bindings/TlsProblem";
import type { TransportFault } from "../bindings/TransportFault";
import type { ModelError } from "../bindings/ModelError";
import type { Problem } from "../bindings/Problem";
import type { ProbeAnswer } from "../bindings/ProbeAnswer";
import type { ProcessEnd } from "../bindings/ProcessEnd";
import type { ServerRequestRefusal } from "../bindings/ServerRequestRefusal";
import type { StartCause } from "../bindings/StartCause";
import type { UrlFault } from "../bindings/UrlFault";
import { formatBytes } from "../format";
import { describeRefusal as describeSkillRefusal } from "../skills/describe";
import i18n from "./index";

type T = TFunction<"problems">;

/** " (MethodNotFound)": the name the specs give an error code, as the engine sent it. */
function codeName(name: string | null): string {
  return name === null ? "" : ` (${name})`;
}

/** Why Periscope refused a server's request, in `t`'s language. */
function refusalText(why: ServerRequestRefusal, t: T): string {
  switch (why.rule) {
    case "over_limit":
      return t("refusal.over_limit", { limit: why.limit });
    case "mode_not_declared":
    case "unknown_mode":
      return t(`refusal.${why.rule}`, { mode: why.mode });
    case "url_elicitation_without":
      return t("refusal.url_elicitation_without", { missing: why.missing.join(", ") });
    case "no_requested_schema":
      return t("refusal.no_requested_schema");
    case "schema_outside_form_subset":
      return t("refusal.schema_outside_form_subset", { detail: why.detail });
  }
}

/** A wait in milliseconds as seconds, to a tenth ("10", not "10.001"). */
function seconds(ms: number): number {
  return Math.round(ms / 100) / 10;
}

/** What kept a request or its answer from crossing the connection, in `t`'s language. */
function transportFaultText(fault: TransportFault, t: T): string {
  switch (fault.kind) {
    case "closed":
    case "session_expired":
      return t(`fault.${fault.kind}`);
    case "write_failed":
    case "other":
      return t(`fault.${fault.kind}`, { detail: fault.detail });
    case "http_status":
      return t("fault.http_status", { httpMethod: fault.http_method, url: fault.url, status: fault.status });
    case "content_type":
      return t("fault.content_type", { contentType: fault.content_type });
    case "tls":
      return t("fault.tls", { why: tlsText(fault.tls, t) });
    case "unauthorized":
      return fault.error === null
        ? t("fault.unauthorized", { status: fault.status })
        : t("fault.unauthorized_error", { status: fault.status, error: fault.error });
    case "input_not_read":
      return fault.unsent === fault.total
        ? t("fault.input_not_read_all", { total: formatBytes(fault.total), seconds: seconds(fault.waited_ms) })
        : t("fault.input_not_read", { unsent: formatBytes(fault.unsent), seconds: seconds(fault.waited_ms) });
    case "queued_behind":
      return t("fault.queued_behind", { seconds: seconds(fault.waited_ms) });
    case "queue_full":
      return t("fault.queue_full", { limit: fault.limit });
    case "no_response_headers":
      return t("fault.no_response_headers", { httpMethod: fault.http_method, url: fault.url, seconds: seconds(fault.waited_ms) });
    case "stream_broke": {
      const broke = t("fault.stream_broke", { detail: fault.detail });
      return fault.not_reissued === null ? broke : `${broke} ${t(`fault.not_reissued.${fault.not_reissued}`)}`;
    }
  }
}

function tlsText(tls: TlsProblem, t: T): string {
  switch (tls.kind) {
    case "wrong_name":
      return t("tls.wrong_name", { expected: tls.expected ?? "?", presented: tls.presented.join(", ") });
    case "expired":
    case "not_yet_valid":
    case "untrusted_issuer":
      return t(`tls.${tls.kind}`);
    case "other":
      return t("tls.other", { detail: tls.detail });
  }
}

/** How a server's answer broke the protocol, in `t`'s language. */
function breachText(breach: Breach, t: T): string {
  switch (breach.kind) {
    case "neither_result_nor_error":
    case "no_body":
      return t(`breach.${breach.kind}`);
    case "missing_member":
    case "wrong_item":
      return t(`breach.${breach.kind}`, { member: breach.member, expected: t(`breach.type.${breach.expected}`, { defaultValue: breach.expected }) });
    case "bad_value":
      return t("breach.bad_value", { member: breach.member, value: breach.value });
    case "cursor_not_string":
    case "cursor_repeats":
      return t(`breach.${breach.kind}`, { cursor: breach.cursor });
    case "too_many_pages":
      return t("breach.too_many_pages", { pages: breach.pages });
    case "not_a_task":
      return t("breach.not_a_task", { missing: breach.missing });
    case "task_without_result":
      return t("breach.task_without_result", { status: breach.status });
    case "bad_base64":
    case "other":
      return t(`breach.${breach.kind}`, { detail: breach.detail });
    case "too_big":
      return t("breach.too_big", { size: formatBytes(breach.bytes), limit: formatBytes(breach.limit) });
  }
}

/** What the `server/discover` probe got that made Periscope speak the legacy era. */
export function probeAnswerText(answer: ProbeAnswer, t: T = i18n.getFixedT(null, "problems")): string {
  switch (answer.kind) {
    case "error":
      return t("probeAnswer.error", { code: answer.code, name: codeName(answer.code_name), message: answer.message });
    case "no_answer":
      return t("probeAnswer.no_answer", { seconds: seconds(answer.after_ms) });
    case "silent_while_talking":
      return t("probeAnswer.silent_while_talking", { seconds: answer.after_s });
    case "only_legacy_versions":
      return t("probeAnswer.only_legacy_versions", { versions: answer.versions.join(", ") });
    case "not_discover_result":
      return t("probeAnswer.not_discover_result");
    case "transport":
      return transportFaultText(answer.fault, t);
    case "breach":
      return breachText(answer.breach, t);
  }
}

/** Why Periscope did not send a request, in `t`'s language. */
function notSentText(why: NotSentWhy, t: T): string {
  switch (why.rule) {
    case "removed_in_modern":
      return t(`notSent.${why.replaced_by}`);
    case "header_rule":
      return t("notSent.header_rule", { tool: why.tool, why: headerAnnotationText(why.why, t) });
    case "too_many_rounds":
      return t("notSent.too_many_rounds", { rounds: why.rounds });
  }
}

/** How a connection ended, in `t`'s language. */
export function closeText(cause: CloseCause, t: T = i18n.getFixedT(null, "problems")): string {
  switch (cause.kind) {
    case "unknown":
    case "stdout_closed_still_running":
    case "legacy_stream_closed":
      return t(`close.${cause.kind}`);
    case "process": {
      const end = processEndText(cause.end, t);
      return cause.shutdown === null ? end : t(`close.after_${cause.shutdown}`, { end });
    }
    case "stdout_read_failed":
      return t("close.stdout_read_failed", { detail: cause.detail });
    case "disconnected": {
      const session = cause.session;
      if (session === null) return t("close.disconnected");
      switch (session.kind) {
        case "deleted":
        case "delete_not_allowed":
          return t(`close.${session.kind}`);
        case "delete_unanswered":
          return t("close.delete_unanswered", { seconds: session.waited_s });
        case "delete_status":
          return t("close.delete_status", { status: session.status });
        case "delete_failed":
          return t("close.delete_failed", { detail: session.detail });
      }
    }
  }
}

function processEndText(end: ProcessEnd, t: T): string {
  switch (end.kind) {
    case "exited":
      return t("close.exited", { code: end.code });
    case "killed":
      return t("close.killed", { signal: end.signal });
    case "did_not_exit":
      return t("close.did_not_exit");
  }
}

/** Why a server could not be started or reached, in `t`'s language. */
function startText(cause: StartCause, t: T): string {
  switch (cause.kind) {
    case "program_not_found":
    case "permission_denied":
      return t(`start.${cause.kind}`, { command: cause.command });
    case "spawn_failed":
      return t("start.spawn_failed", { command: cause.command, detail: cause.detail });
    case "record_file_failed":
      return t("start.record_file_failed", { path: cause.path, detail: cause.detail });
    case "url_unusable":
      return t("start.url_unusable", { url: cause.url, fault: urlFaultText(cause.fault, t) });
    case "secrets_unresolved":
      return t("start.secrets_unresolved", { name: cause.name, detail: cause.detail });
  }
}

function urlFaultText(fault: UrlFault, t: T): string {
  switch (fault.kind) {
    case "not_a_url":
    case "client_failed":
      return t(`urlFault.${fault.kind}`, { detail: fault.detail });
    case "not_http":
      return t("urlFault.not_http");
    case "bad_header_name":
    case "bad_header_value":
      return t(`urlFault.${fault.kind}`, { name: fault.name });
  }
}

/** Why a model provider did not answer, in `t`'s language. */
function modelErrorText(error: ModelError, t: T): string {
  switch (error.kind) {
    case "not_a_url":
      return t("modelError.not_a_url", { url: error.url, detail: error.detail });
    case "not_http":
      return t("modelError.not_http", { scheme: error.scheme });
    case "key_in_clear":
      return t("modelError.key_in_clear", { host: error.host });
    case "transport":
    case "provider":
    case "protocol":
      return t(`modelError.${error.kind}`, { detail: error.detail });
    case "timeout":
      return t(`modelError.timeout_${error.stage}`, { seconds: error.after_ms / 1000 });
    case "status":
      return t(error.truncated ? "modelError.status_cut" : "modelError.status", {
        status: error.status,
        detail: error.message ?? error.body,
      });
    case "cancelled":
      return t("modelError.cancelled");
  }
}

/** What was wrong with the catalog file `path`, in `t`'s language. */
function catalogDamageText(path: string, damage: CatalogDamage, t: T): string {
  switch (damage.kind) {
    case "unreadable":
      return t("catalog.unreadable", { path, detail: damage.detail });
    case "no_list":
      return t("catalog.no_list", { path });
    case "entries_left_out":
      return t("catalog.entries_left_out", {
        path,
        count: damage.entries.length,
        entries: damage.entries.map((e) => leftOutText(e, t)).join("; "),
      });
  }
}

function leftOutText(entry: LeftOutEntry, t: T): string {
  const label = entry.name ?? entry.id;
  return label === null
    ? t("catalog.entry", { position: entry.position, detail: entry.detail })
    : t("catalog.entry_named", { position: entry.position, name: label, detail: entry.detail });
}

/** Which rule of `x-mcp-header` a tool's annotations break, in `t`'s language. */
export function headerAnnotationText(why: HeaderAnnotationError, t: T = i18n.getFixedT(null, "problems")): string {
  switch (why.rule) {
    case "empty":
    case "not_a_string":
      return t(`headerAnnotation.${why.rule}`, { at: why.at });
    case "not_a_token":
      return t("headerAnnotation.not_a_token", { at: why.at, name: why.name });
    case "duplicate":
      return t("headerAnnotation.duplicate", { name: why.name });
    case "not_primitive":
      return t("headerAnnotation.not_primitive", { at: why.at, name: why.name, type: why.kind });
    case "not_statically_reachable":
      return t("headerAnnotation.not_statically_reachable", { at: why.at, name: why.name, through: why.through });
  }
}

/** True for a value that has a Problem's shape (a command's rejection, an event's problem). */
export function isProblem(value: unknown): value is Problem {
  return typeof value === "object" && value !== null && typeof (value as { kind?: unknown }).kind === "string";
}

/** The language a fixed `t` speaks (i18next sets `lng` on what getFixedT returns; its type
 * does not say so): the skills words are asked for in the same one. */
const languageOf = (t: T): string | undefined => (t as unknown as { lng?: string }).lng;

/** `problem` in the UI's current language (or with `t`, in that one's). */
export function problemText(problem: Problem, t: T = i18n.getFixedT(null, "problems")): string {
  const cause = (inner: Problem) => problemText(inner, t);
  switch (problem.kind) {
    case "server_not_found":
      return t("kind.server_not_found", { id: problem.id });
    case "not_connected":
    case "still_connecting":
    case "remembered_era_failed":
    case "dialog_closed":
    case "busy":
    case "check_running":
    case "check_cancelled":
    case "load_running":
    case "load_not_prepared":
      return t(`kind.${problem.kind}`);
    case "load_refused":
      return t("kind.load_refused", { detail: problem.detail });
    case "eval_running":
      return t("kind.eval_running");
    case "eval_refused":
      return t("kind.eval_refused", { detail: problem.detail });
    case "skill_refused":
      return t("kind.skill_refused", { uri: problem.uri, why: describeSkillRefusal(problem.refusal, languageOf(t)) });
    case "connection_failed":
      return t("kind.connection_failed", { cause: cause(problem.cause) });
    case "start_failed":
      return t("kind.start_failed", { cause: startText(problem.cause, t) });
    case "connection_ended":
      return t("kind.connection_ended", { cause: closeText(problem.cause, t) });
    case "request_failed":
      return t("kind.request_failed", {
        method: problem.method,
        code: problem.code,
        codeName: codeName(problem.code_name),
        message: problem.message,
      });
    case "timed_out":
      return t("kind.timed_out", { method: problem.method, seconds: problem.after_ms / 1000 });
    case "cancelled":
    case "session_expired":
    case "tasks_not_offered":
      return t(`kind.${problem.kind}`, { method: problem.method });
    case "closed_before_answer":
      return problem.stderr_tail.length > 0
        ? t("kind.closed_before_answer_stderr", {
            method: problem.method,
            cause: closeText(problem.cause, t),
            stderr: problem.stderr_tail.join("\n"),
          })
        : t("kind.closed_before_answer", { method: problem.method, cause: closeText(problem.cause, t) });
    case "transport":
      return t("kind.transport", { method: problem.method, fault: transportFaultText(problem.fault, t) });
    case "not_sent":
      return t("kind.not_sent", { method: problem.method, why: notSentText(problem.why, t) });
    case "protocol_broken":
      return t("kind.protocol_broken", { method: problem.method, breach: breachText(problem.breach, t) });
    case "not_found":
      return t("kind.not_found", { what: t(`thing.${problem.what}`), id: problem.id });
    case "no_longer_waiting":
      return t("kind.no_longer_waiting", { what: t(`waiting.${problem.what}`) });
    case "unavailable": {
      const what = t(`facility.${problem.what}`);
      return problem.detail === null
        ? t("kind.unavailable", { what })
        : t("kind.unavailable_detail", { what, detail: problem.detail });
    }
    case "invalid_input": {
      const field = t(`field.${problem.field}`);
      return problem.detail === null
        ? t("kind.invalid_input", { field })
        : t("kind.invalid_input_detail", { field, detail: problem.detail });
    }
    case "out_of_range":
      return t("kind.out_of_range", { field: t(`field.${problem.field}`), low: problem.low, high: problem.high });
    case "limit_hit": {
      const head = { what: t(`limit.${problem.what}`), limit: problem.limit };
      return problem.asked === null
        ? t("kind.limit_hit", head)
        : t("kind.limit_hit_asked", { ...head, asked: problem.asked });
    }
    case "io":
      return t("kind.io", { path: problem.path, detail: problem.detail });
    case "not_saved":
      return t("kind.not_saved", { what: t(`stored.${problem.what}`), cause: cause(problem.cause) });
    case "record_unreadable":
    case "internal":
    case "sampling_malformed":
    case "tools_unlisted":
      return t(`kind.${problem.kind}`, { detail: problem.detail });
    case "model_failed":
      return t("kind.model_failed", { error: modelErrorText(problem.error, t) });
    case "not_an_image":
      return t("kind.not_an_image", { contentType: problem.content_type });
    case "url_refused":
      return t("kind.url_refused", { url: problem.url, reason: t(`urlRefusal.${problem.reason}`) });
    case "fetch_failed":
      return t("kind.fetch_failed", { url: problem.url, detail: problem.detail });
    case "program_failed": {
      // Periscope's own names for what it starts are worded; a program's name stays as it is.
      const key = `program.${problem.program}`;
      const program = i18n.exists(`problems:${key}`) ? t(key as "program.the validator") : problem.program;
      return t("kind.program_failed", { program, detail: problem.detail });
    }
    case "sign_in":
      return t("kind.sign_in", { what: t(`signIn.${problem.what}`) });
    case "task_ended":
      return problem.message === null
        ? t("kind.task_ended", { status: problem.status })
        : t("kind.task_ended_message", { status: problem.status, message: problem.message });
    case "not_imported":
      return t("kind.not_imported", { name: problem.name, imported: problem.imported, cause: cause(problem.cause) });
    case "checks_off":
      return t("kind.checks_off", { detail: problem.detail });
    case "version_not_spoken":
      return t("kind.version_not_spoken", { version: problem.version, speaks: problem.speaks.join(", ") });
    case "no_version_in_common":
      return problem.offered.length === 0
        ? t("kind.no_version_in_common_none", { using: problem.using })
        : t("kind.no_version_in_common", { offered: problem.offered.join(", "), using: problem.using });
    case "version_retried":
      return t("kind.version_retried", { method: problem.method, refused: problem.refused, version: problem.version });
    case "sign_in_gave_up":
      return t("kind.sign_in_gave_up", { attempts: problem.attempts, status: problem.status });
    case "session_renewed":
      return t("kind.session_renewed", { method: problem.method });
    case "reissued":
      return t("kind.reissued", { method: problem.method, detail: problem.detail, id: problem.id });
    case "server_request_refused":
      return t("kind.server_request_refused", {
        method: problem.method,
        id: problem.id,
        why: refusalText(problem.why, t),
      });
    case "input_not_given":
      return t("kind.input_not_given", {
        key: problem.key,
        method: problem.method,
        code: problem.code,
        codeName: codeName(problem.code_name),
      });
    case "tool_refused":
      return t("kind.tool_refused", { tool: problem.tool, why: headerAnnotationText(problem.why, t) });
    case "catalog_damaged":
      return t("kind.catalog_damaged", {
        damage: catalogDamageText(problem.path, problem.damage, t),
        copy:
          problem.copy.kind === "copied"
            ? t("catalog.copied", { path: problem.copy.path })
            : t("catalog.not_copied", { detail: problem.copy.detail }),
      });
    case "from_cache":
      return t("kind.from_cache", { method: problem.method, seconds: problem.left_s });
    case "auto_answer_failed":
    case "not_recorded":
      return t(`kind.${problem.kind}`, { cause: cause(problem.cause) });
  }
}
