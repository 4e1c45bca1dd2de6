import { describe, expect, it } from "vitest";
import type { Breach } from "../bindings/Breach";
import type { CatalogDamage } from "../bindings/CatalogDamage";
import type { CloseCause } from "../bindings/CloseCause";
import type { HeaderAnnotationError } from "../bindings/HeaderAnnotationError";
import type { ModelError } from "../bindings/ModelError";
import type { NotReissued } from "../bindings/NotReissued";
import type { NotSentWhy } from "../bindings/NotSentWhy";
import type { TransportFault } from "../bindings/TransportFault";
import type { ProbeAnswer } from "../bindings/ProbeAnswer";
import type { Problem } from "../bindings/Problem";
import type { ServerRequestRefusal } from "../bindings/ServerRequestRefusal";
import type { StartCause } from "../bindings/StartCause";
import { probeAnswerText, problemText } from "./problem";
import { strictT } from "./strictT";

const cause: Problem = { kind: "not_connected", server: "srv-1" };
const exited: CloseCause = { kind: "process", end: { kind: "exited", code: 3 }, shutdown: null };

// One of every kind: a kind added in Rust without a sample here fails `tsc`.
const samples: Record<Problem["kind"], Problem> = {
  server_not_found: { kind: "server_not_found", id: "srv-1" },
  not_connected: cause,
  still_connecting: { kind: "still_connecting", server: "srv-1" },
  connection_failed: { kind: "connection_failed", server: "srv-1", cause },
  start_failed: { kind: "start_failed", server: "srv-1", cause: { kind: "program_not_found", command: "npx" } },
  connection_ended: { kind: "connection_ended", cause: exited },
  remembered_era_failed: { kind: "remembered_era_failed" },
  request_failed: {
    kind: "request_failed",
    method: "tools/call",
    code: -32601,
    code_name: "MethodNotFound",
    message: "no such tool here",
    data: null,
  },
  timed_out: { kind: "timed_out", method: "tools/call", after_ms: 30000 },
  cancelled: { kind: "cancelled", method: "tools/call" },
  closed_before_answer: {
    kind: "closed_before_answer",
    method: "tools/list",
    cause: exited,
    stderr_tail: ["out of cheese"],
  },
  session_expired: { kind: "session_expired", method: "tools/call" },
  transport: {
    kind: "transport",
    method: "tools/call",
    detail: "the server answered POST https://example.com/mcp with HTTP 404",
    fault: { kind: "http_status", http_method: "POST", url: "https://example.com/mcp", status: 404, content_type: "text/html" },
  },
  protocol_broken: {
    kind: "protocol_broken",
    method: "tools/list",
    breach: { kind: "missing_member", member: "tools", expected: "array" },
  },
  not_sent: { kind: "not_sent", method: "ping", why: { rule: "removed_in_modern", replaced_by: "no_session" } },
  not_found: { kind: "not_found", what: "frame", id: "42" },
  no_longer_waiting: { kind: "no_longer_waiting", what: "tool_call" },
  unavailable: { kind: "unavailable", what: "secret_store", detail: "the keyring is locked" },
  invalid_input: { kind: "invalid_input", field: "blob", detail: "Invalid padding" },
  out_of_range: { kind: "out_of_range", field: "request_timeout_seconds", low: 1, high: 3600 },
  limit_hit: { kind: "limit_hit", what: "timeline_servers", limit: 8, asked: 9 },
  io: { kind: "io", path: "/tmp/catalog.json", detail: "Permission denied (os error 13)" },
  not_saved: { kind: "not_saved", what: "settings", cause: { kind: "io", path: "/tmp/s.json", detail: "No space left" } },
  record_unreadable: { kind: "record_unreadable", detail: "database is locked" },
  not_an_image: { kind: "not_an_image", content_type: "text/html" },
  dialog_closed: { kind: "dialog_closed" },
  url_refused: { kind: "url_refused", url: "ftp://example.com/icon", reason: "not_https" },
  fetch_failed: { kind: "fetch_failed", url: "https://example.com/icon.png", detail: "HTTP 500 Internal Server Error" },
  program_failed: { kind: "program_failed", program: "xdg-open", detail: "No such file or directory" },
  model_failed: { kind: "model_failed", error: { kind: "provider", detail: "invalid api key given" } },
  sampling_malformed: { kind: "sampling_malformed", detail: "a text block without text" },
  tools_unlisted: { kind: "tools_unlisted", detail: "not connected" },
  busy: { kind: "busy" },
  check_running: { kind: "check_running" },
  check_cancelled: { kind: "check_cancelled" },
  load_running: { kind: "load_running" },
  load_not_prepared: { kind: "load_not_prepared" },
  load_refused: { kind: "load_refused", detail: "the workload is empty: nothing to send" },
  eval_running: { kind: "eval_running" },
  eval_refused: { kind: "eval_refused", detail: "the suite has no cases" },
  skill_refused: {
    kind: "skill_refused",
    uri: "skill://pdf/SKILL.md",
    refusal: { kind: "frontmatter_differs", fields: ["description"] },
  },
  sign_in: { kind: "sign_in", server: "srv-1", what: "not_remote" },
  tasks_not_offered: { kind: "tasks_not_offered", method: "tools/call" },
  task_ended: { kind: "task_ended", status: "failed", message: "the job ran out of time" },
  not_imported: { kind: "not_imported", name: "filesystem", imported: 2, cause: { kind: "busy" } },
  internal: { kind: "internal", detail: "task was cancelled" },
  checks_off: { kind: "checks_off", detail: "Resource temporarily unavailable (os error 11)" },
  version_not_spoken: { kind: "version_not_spoken", version: "1999-01-01", speaks: ["2025-06-18", "2025-11-25"] },
  no_version_in_common: { kind: "no_version_in_common", offered: ["1999-01-01"], using: "2026-07-28" },
  version_retried: { kind: "version_retried", method: "server/discover", refused: "2026-07-28", version: "2026-09-01" },
  sign_in_gave_up: { kind: "sign_in_gave_up", attempts: 3, status: 401 },
  session_renewed: { kind: "session_renewed", method: "tools/list" },
  reissued: { kind: "reissued", method: "tools/list", detail: "error decoding response body", id: "7" },
  server_request_refused: {
    kind: "server_request_refused",
    method: "elicitation/create",
    id: "e3",
    why: { rule: "unknown_mode", mode: "telepathy" },
  },
  input_not_given: { kind: "input_not_given", key: "name", method: "x/y", code: -32601, code_name: "MethodNotFound" },
  tool_refused: { kind: "tool_refused", tool: "deploy", why: { rule: "duplicate", name: "Region" } },
  catalog_damaged: {
    kind: "catalog_damaged",
    path: "/home/u/.local/share/periscope/catalog.json",
    damage: { kind: "unreadable", detail: "expected value at line 1 column 12" },
    copy: { kind: "copied", path: "/home/u/.local/share/periscope/catalog.json.bak-1" },
  },
  from_cache: { kind: "from_cache", method: "tools/list", left_s: 12 },
  auto_answer_failed: { kind: "auto_answer_failed", cause },
  not_recorded: { kind: "not_recorded", cause },
};

// Every rule a server's request is refused by, and every x-mcp-header rule a tool breaks: a
// rule added in Rust without a sample here fails `tsc`.
const refusals: Record<ServerRequestRefusal["rule"], ServerRequestRefusal> = {
  over_limit: { rule: "over_limit", limit: 32 },
  mode_not_declared: { rule: "mode_not_declared", mode: "url" },
  unknown_mode: { rule: "unknown_mode", mode: "telepathy" },
  url_elicitation_without: { rule: "url_elicitation_without", missing: ["elicitationId", "message"] },
  no_requested_schema: { rule: "no_requested_schema" },
  schema_outside_form_subset: { rule: "schema_outside_form_subset", detail: "nested objects are not allowed" },
};
const headerRules: Record<HeaderAnnotationError["rule"], HeaderAnnotationError> = {
  empty: { rule: "empty", at: "/properties/region" },
  not_a_string: { rule: "not_a_string", at: "/properties/region" },
  not_a_token: { rule: "not_a_token", at: "/properties/region", name: "Re gion" },
  duplicate: { rule: "duplicate", name: "Region" },
  not_primitive: { rule: "not_primitive", at: "/properties/tags", name: "Tags", kind: "array" },
  not_statically_reachable: { rule: "not_statically_reachable", at: "/properties/a", name: "A", through: "anyOf" },
};

// Every fault a transport names, and every reason a request is not sent (a kind added in Rust
// without a sample here fails `tsc`).
const faults: Record<TransportFault["kind"], TransportFault[]> = {
  closed: [{ kind: "closed" }],
  write_failed: [{ kind: "write_failed", detail: "Broken pipe (os error 32)" }],
  http_status: [{ kind: "http_status", http_method: "GET", url: "https://example.com/sse", status: 405, content_type: null }],
  content_type: [{ kind: "content_type", content_type: "text/html" }],
  tls: [
    { kind: "tls", tls: { kind: "wrong_name", expected: "a.example", presented: ["b.example", "c.example"] } },
    { kind: "tls", tls: { kind: "expired", not_after: 1700000000 } },
    { kind: "tls", tls: { kind: "not_yet_valid" } },
    { kind: "tls", tls: { kind: "untrusted_issuer" } },
    { kind: "tls", tls: { kind: "other", detail: "handshake failure" } },
  ],
  unauthorized: [
    { kind: "unauthorized", status: 401, error: null },
    { kind: "unauthorized", status: 403, error: "insufficient_scope" },
  ],
  session_expired: [{ kind: "session_expired" }],
  input_not_read: [
    { kind: "input_not_read", unsent: 4096, total: 4096, waited_ms: 30000 },
    { kind: "input_not_read", unsent: 1024, total: 4096, waited_ms: 2500 },
  ],
  queued_behind: [{ kind: "queued_behind", waited_ms: 30000 }],
  queue_full: [{ kind: "queue_full", limit: 1024 }],
  no_response_headers: [{ kind: "no_response_headers", http_method: "POST", url: "https://example.com/mcp", waited_ms: 30000 }],
  stream_broke: ([null, "may_repeat_effect", "already_reissued"] as Array<NotReissued | null>).map(
    (not_reissued): TransportFault => ({ kind: "stream_broke", detail: "error decoding response body", not_reissued }),
  ),
  other: [{ kind: "other", detail: "no endpoint event within 10 s" }],
};
const breaches: Record<Breach["kind"], Breach[]> = {
  neither_result_nor_error: [{ kind: "neither_result_nor_error" }],
  missing_member: (["array", "string", "object", "non-empty array"] as const).map(
    (expected): Breach => ({ kind: "missing_member", member: "completion.values", expected }),
  ),
  wrong_item: [{ kind: "wrong_item", member: "completion.values", expected: "string" }],
  bad_value: [{ kind: "bad_value", member: "messages[0].role", value: '"system"' }],
  no_body: [{ kind: "no_body" }],
  bad_base64: [{ kind: "bad_base64", detail: "Invalid padding" }],
  too_big: [{ kind: "too_big", bytes: 9000000, limit: 8388608 }],
  cursor_not_string: [{ kind: "cursor_not_string", cursor: "42" }],
  cursor_repeats: [{ kind: "cursor_repeats", cursor: '"page-2"' }],
  too_many_pages: [{ kind: "too_many_pages", pages: 10000 }],
  not_a_task: [{ kind: "not_a_task", missing: "taskId" }],
  task_without_result: [{ kind: "task_without_result", status: "cancelled" }],
  other: [{ kind: "other", detail: "the server named only legacy versions (2025-06-18)" }],
};
const notSent: Record<NotSentWhy["rule"], NotSentWhy[]> = {
  removed_in_modern: (["no_session", "level_per_request", "listen_stream", "no_handshake"] as const).map(
    (replaced_by): NotSentWhy => ({ rule: "removed_in_modern", replaced_by }),
  ),
  header_rule: [{ rule: "header_rule", tool: "deploy", why: { rule: "duplicate", name: "Region" } }],
  too_many_rounds: [{ rule: "too_many_rounds", rounds: 16 }],
};

// Every way a connection ends and a start fails (a kind added in Rust without a sample here fails
// `tsc`), with each way a process ends, each shutdown step and each end of an HTTP session.
const closes: Record<CloseCause["kind"], CloseCause[]> = {
  unknown: [{ kind: "unknown" }],
  process: [
    exited,
    { kind: "process", end: { kind: "killed", signal: 9 }, shutdown: null },
    ...(["closed_stdin", "sent_sigterm", "sent_sigkill"] as const).map(
      (shutdown): CloseCause => ({ kind: "process", end: { kind: "did_not_exit" }, shutdown }),
    ),
  ],
  stdout_closed_still_running: [{ kind: "stdout_closed_still_running" }],
  stdout_read_failed: [{ kind: "stdout_read_failed", detail: "Broken pipe (os error 32)", end: null }],
  disconnected: [
    { kind: "disconnected", session: null },
    { kind: "disconnected", session: { kind: "deleted" } },
    { kind: "disconnected", session: { kind: "delete_unanswered", waited_s: 5 } },
    { kind: "disconnected", session: { kind: "delete_not_allowed" } },
    { kind: "disconnected", session: { kind: "delete_status", status: 500 } },
    { kind: "disconnected", session: { kind: "delete_failed", detail: "connection reset" } },
  ],
  legacy_stream_closed: [{ kind: "legacy_stream_closed" }],
};
const url = "https://example.com/mcp";
const starts: Record<StartCause["kind"], StartCause[]> = {
  program_not_found: [{ kind: "program_not_found", command: "npx" }],
  permission_denied: [{ kind: "permission_denied", command: "./server.sh" }],
  spawn_failed: [{ kind: "spawn_failed", command: "npx", detail: "Argument list too long (os error 7)" }],
  record_file_failed: [{ kind: "record_file_failed", path: "/tmp/r.jsonl", detail: "Read-only file system" }],
  url_unusable: [
    { kind: "url_unusable", url, fault: { kind: "not_a_url", detail: "relative URL without a base" } },
    { kind: "url_unusable", url, fault: { kind: "not_http" } },
    { kind: "url_unusable", url, fault: { kind: "bad_header_name", name: "X Bad" } },
    { kind: "url_unusable", url, fault: { kind: "bad_header_value", name: "Authorization" } },
    { kind: "url_unusable", url, fault: { kind: "client_failed", detail: "no TLS backend" } },
  ],
  secrets_unresolved: [{ kind: "secrets_unresolved", name: "GitHub", detail: "the keyring is locked" }],
};

// Every way the catalog file is damaged, copied aside or not.
const catalogPath = "/tmp/catalog.json";
const damages: Record<CatalogDamage["kind"], CatalogDamage[]> = {
  unreadable: [{ kind: "unreadable", detail: "Permission denied (os error 13)" }],
  no_list: [{ kind: "no_list" }],
  entries_left_out: [1, 2].map(
    (n): CatalogDamage => ({
      kind: "entries_left_out",
      entries: [
        { position: 2, name: "Broken", id: "b", detail: "missing field `command`" },
        { position: 3, name: null, id: null, detail: "invalid type: integer `5`" },
      ].slice(0, n),
    }),
  ),
};

// Every way a model provider fails, with each wait that can run out.
const modelErrors: Record<ModelError["kind"], ModelError[]> = {
  not_a_url: [{ kind: "not_a_url", url: "api.example.com", detail: "relative URL without a base" }],
  not_http: [{ kind: "not_http", scheme: "ftp" }],
  key_in_clear: [{ kind: "key_in_clear", host: "10.0.0.5" }],
  transport: [{ kind: "transport", detail: "connection refused" }],
  timeout: (["first_byte", "idle", "total"] as const).map((stage): ModelError => ({ kind: "timeout", stage, after_ms: 30000 })),
  status: [true, false].map(
    (truncated): ModelError => ({ kind: "status", status: 401, message: "invalid x-api-key", body: "{}", truncated }),
  ),
  provider: [{ kind: "provider", detail: "Overloaded" }],
  protocol: [{ kind: "protocol", detail: "a chunk of the stream is not JSON" }],
  cancelled: [{ kind: "cancelled" }],
};

/** Every sample: one of each kind, and a kind that carries a rule once with each rule. */
const everyProblem: Problem[] = [
  ...Object.values(samples),
  ...Object.values(refusals).map(
    (why): Problem => ({ kind: "server_request_refused", method: "elicitation/create", id: "e1", why }),
  ),
  ...Object.values(headerRules).map((why): Problem => ({ kind: "tool_refused", tool: "deploy", why })),
  ...Object.values(faults)
    .flat()
    .map((fault): Problem => ({ kind: "transport", method: "tools/list", detail: "(the CLI's words)", fault })),
  ...(["server_name", "server_command", "server_url"] as const).map((field): Problem => ({ kind: "invalid_input", field, detail: null })),
  ...Object.values(breaches)
    .flat()
    .map((breach): Problem => ({ kind: "protocol_broken", method: "tools/list", breach })),
  ...Object.values(notSent)
    .flat()
    .map((why): Problem => ({ kind: "not_sent", method: "ping", why })),
  ...Object.values(closes)
    .flat()
    .map((c): Problem => ({ kind: "connection_ended", cause: c })),
  ...Object.values(starts)
    .flat()
    .map((c): Problem => ({ kind: "start_failed", server: "srv-1", cause: c })),
  ...Object.values(modelErrors)
    .flat()
    .map((error): Problem => ({ kind: "model_failed", error })),
  ...Object.values(damages)
    .flat()
    .flatMap((damage): Problem[] => [
      { kind: "catalog_damaged", path: catalogPath, damage, copy: { kind: "copied", path: `${catalogPath}.bak-1` } },
      { kind: "catalog_damaged", path: catalogPath, damage, copy: { kind: "not_copied", detail: "No space left on device" } },
    ]),
];

// The protocol's own names, spelled as the spec spells them in every language.
const protocolNames = ["x-mcp-header"];

/** Every string a problem carries (its parameters, a nested cause's too), except the kinds. */
function parameters(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (typeof value === "number") return [String(value)];
  if (Array.isArray(value)) return value.flatMap(parameters);
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([key, v]) => (key === "kind" ? [] : parameters(v)));
  }
  return [];
}

/** Words a problem in `lng` with no fallback language; any key it asked for and missed is kept. */
function worder(lng: "en" | "zh-Hans") {
  const { t, missing } = strictT(lng, "problems");
  return { word: (problem: Problem) => problemText(problem, t), missing };
}

describe("every problem kind, in every language", () => {
  for (const lng of ["en", "zh-Hans"] as const) {
    it(`has words in ${lng}, with no key missing and what was sent kept as sent`, () => {
      const { word, missing } = worder(lng);
      for (const problem of everyProblem) {
        const text = word(problem);
        expect(text.trim(), problem.kind).not.toBe("");
        expect(text, problem.kind).not.toContain(`kind.${problem.kind}`);
        for (const sent of ["message", "detail", "reason", "version", "key", "tool"] as const) {
          // A refused URL's reason is Periscope's own (an enum), worded like the kind.
          if (problem.kind === "url_refused" && sent === "reason") continue;
          // A transport problem's detail is the CLI's English; the UI words its fault.
          if (problem.kind === "transport" && sent === "detail") continue;
          const value = (problem as Partial<Record<string, unknown>>)[sent];
          if (typeof value === "string") expect(text, problem.kind).toContain(value);
        }
      }
      expect(missing).toEqual([]);
    });
  }

  it("says no English sentence of Periscope's own in the Chinese UI", () => {
    const { word } = worder("zh-Hans");
    // Three or more English words in a row, once the parameters (quoted as sent) are taken out.
    const englishRun = /[A-Za-z]+(?:[\s,'’-]+[A-Za-z]+){2,}/;
    for (const problem of everyProblem) {
      let text = word(problem);
      const quoted = [...parameters(problem), ...protocolNames];
      for (const value of quoted.sort((a, b) => b.length - a.length)) text = text.split(value).join(" ");
      expect(text, `${problem.kind}: ${word(problem)}`).not.toMatch(englishRun);
    }
  });

  it("quotes a server's error message and names its code", () => {
    const { word } = worder("en");
    expect(word(samples.request_failed)).toBe(
      "tools/call: the server answered with error -32601 (MethodNotFound): “no such tool here”",
    );
  });
});

describe("what the era probe got, in every language", () => {
  // Every kind (a kind added in Rust without a sample here fails `tsc`).
  const answers: Record<ProbeAnswer["kind"], ProbeAnswer> = {
    error: { kind: "error", code: -32601, code_name: "MethodNotFound", message: "Method not found" },
    no_answer: { kind: "no_answer", after_ms: 10000 },
    silent_while_talking: { kind: "silent_while_talking", after_s: 3 },
    only_legacy_versions: { kind: "only_legacy_versions", versions: ["2025-06-18", "2025-11-25"] },
    not_discover_result: { kind: "not_discover_result" },
    transport: { kind: "transport", fault: { kind: "http_status", http_method: "POST", url: "https://a.example/mcp", status: 405, content_type: null }, fault_words: "(the CLI's words)" },
    breach: { kind: "breach", breach: { kind: "neither_result_nor_error" } },
  };
  for (const lng of ["en", "zh-Hans"] as const) {
    it(`has words in ${lng}, the server's message kept as sent`, () => {
      const { t, missing } = strictT(lng, "problems");
      for (const answer of Object.values(answers)) expect(probeAnswerText(answer, t).trim(), answer.kind).not.toBe("");
      expect(probeAnswerText(answers.error, t)).toContain("Method not found");
      expect(missing).toEqual([]);
    });
  }
});
