// Words for what an eval run found, in the current language: an expectation, why it failed,
// where arguments differed, a bound the run hit, what it noticed, why a suite does not read.
import type { EvalBound } from "../bindings/EvalBound";
import type { EvalExpectation } from "../bindings/EvalExpectation";
import type { EvalMismatch } from "../bindings/EvalMismatch";
import type { EvalMiss } from "../bindings/EvalMiss";
import type { EvalNotice } from "../bindings/EvalNotice";
import type { EvalSuiteProblem } from "../bindings/EvalSuiteProblem";
import i18n from "../i18n";

/** The evals words in `lng`, or the current language (read at each call: it can change). */
const words = (lng?: string) => i18n.getFixedT(lng ?? null, "evals");

const json = (value: unknown) => JSON.stringify(value);

export function describeExpectation(e: EvalExpectation, lng?: string): string {
  const t = words(lng);
  switch (e.kind) {
    case "called":
      return t("expectation.called", { tool: e.tool });
    case "not_called":
      return t("expectation.not_called", { tool: e.tool });
    case "first":
      return t("expectation.first", { tool: e.tool });
    case "at_most":
      return t("expectation.at_most", { tool: e.tool, limit: e.limit });
    case "answer_contains":
      return t("expectation.answer_contains", { text: e.text });
    case "answer_not_contains":
      return t("expectation.answer_not_contains", { text: e.text });
    case "answer_matches":
      return t("expectation.answer_matches", { pattern: e.pattern });
    case "max_tokens":
      return t("expectation.max_tokens", { limit: e.limit });
    case "max_latency":
      return t("expectation.max_latency", { limit: e.limit_ms });
  }
}

export function describeMismatch(m: EvalMismatch, lng?: string): string {
  const t = words(lng);
  const at = m.path === "" ? t("mismatch.whole") : m.path;
  const r = m.reason;
  switch (r.kind) {
    case "missing":
      return t("mismatch.missing", { at });
    case "unexpected":
      return t("mismatch.unexpected", { at });
    case "not_equal":
      return t("mismatch.not_equal", { at, actual: json(r.actual), expected: json(r.expected) });
    case "no_match":
      return t("mismatch.no_match", { at, pattern: r.pattern });
    case "schema":
      return t("mismatch.schema", { at, detail: r.detail });
    case "length_differs":
      return t("mismatch.length_differs", { at, actual: r.actual, expected: r.expected });
  }
}

export function describeMiss(m: EvalMiss, lng?: string): string {
  const t = words(lng);
  switch (m.kind) {
    case "never_called":
      return t("miss.never_called");
    case "arguments_differ":
      return t("miss.arguments_differ", { calls: m.calls, mismatch: describeMismatch(m.mismatch, lng) });
    case "called_anyway":
      return t("miss.called_anyway", { times: m.times });
    case "first_was":
      return m.tool === null ? t("miss.first_none") : t("miss.first_was", { tool: m.tool });
    case "too_many_calls":
      return t("miss.too_many_calls", { times: m.times });
    case "answer":
      return t("miss.answer", { excerpt: m.excerpt });
    case "tokens":
      return t("miss.tokens", { used: m.used });
    case "no_token_count":
      return t("miss.no_token_count");
    case "latency":
      return t("miss.latency", { ms: m.ms });
  }
}

export function describeBound(b: EvalBound, lng?: string): string {
  const t = words(lng);
  switch (b.kind) {
    case "tokens":
      return t("bound.tokens", { limit: b.limit, used: b.used, skipped: b.skipped });
    case "duration":
      return t("bound.duration", { skipped: b.skipped });
    case "case_time":
      return t("bound.case_time", { count: b.count, ms: b.limit_ms });
    case "cancelled":
      return t("bound.cancelled", { skipped: b.skipped });
  }
}

export function describeNotice(n: EvalNotice, lng?: string): string {
  const t = words(lng);
  switch (n.kind) {
    case "variant_unknown_tools":
      return t("notice.variant_unknown_tools", { variant: n.variant, tools: n.tools.join(", ") });
    case "unknown_tool":
      return t("notice.unknown_tool", { case: n.case, tool: n.tool });
    case "no_judge":
      return t("notice.no_judge", { count: n.cases });
  }
}

export function describeSuiteProblem(p: EvalSuiteProblem, lng?: string): string {
  const t = words(lng);
  switch (p.kind) {
    case "too_big":
      return t("suiteProblem.too_big", { bytes: p.bytes, limit: p.limit });
    case "unreadable":
      return t("suiteProblem.unreadable", { detail: p.detail });
    case "version":
      return t("suiteProblem.version", { found: p.found });
    case "no_cases":
      return t("suiteProblem.no_cases");
    case "too_many_cases":
      return t("suiteProblem.too_many_cases", { count: p.count });
    case "no_id":
      return t("suiteProblem.no_id", { index: p.index });
    case "duplicate_id":
      return t("suiteProblem.duplicate_id", { id: p.id });
    case "no_turn":
      return t("suiteProblem.no_turn", { id: p.id });
    case "too_many_turns":
      return t("suiteProblem.too_many_turns", { id: p.id, count: p.count });
    case "expects_nothing":
      return t("suiteProblem.expects_nothing", { id: p.id });
    case "bad_regex":
      return t("suiteProblem.bad_regex", { id: p.id, pattern: p.pattern, detail: p.detail });
    case "bad_schema":
      return t("suiteProblem.bad_schema", { id: p.id, tool: p.tool, detail: p.detail });
    case "unknown_matcher":
      return t("suiteProblem.unknown_matcher", { id: p.id, matcher: p.matcher });
    case "contradiction":
      return t("suiteProblem.contradiction", { id: p.id, tool: p.tool });
    case "duplicate_variant":
      return t("suiteProblem.duplicate_variant", { name: p.name });
    case "reserved_variant":
      return t("suiteProblem.reserved_variant", { name: p.name });
    case "zero_repeat":
      return t("suiteProblem.zero_repeat");
  }
}

/** A rate in 0..1 as a whole percentage. */
export const pct = (rate: number): string => (rate * 100).toFixed(0);

/** A difference in 0..1 as signed percentage points. */
export const points = (delta: number): string => `${delta > 0 ? "+" : ""}${(delta * 100).toFixed(0)}`;
