import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { EvalRun } from "../bindings/EvalRun";
import type { EvalSuiteProblem } from "../bindings/EvalSuiteProblem";
import type { ToolView } from "../bindings/ToolView";
import i18n from "../i18n";
import { applyProgress, changeEvals, defaultForm, evals, toRequest, toggled, type EvalLive } from "../state/evals";
import { describeBound, describeExpectation, describeMiss, describeSuiteProblem, points } from "./describe";
import { EvalReportView } from "./EvalReportView";
import { needsAllowing } from "./EvalRunForm";
import flakyRun from "./fixtures/flaky-run.json";
import { applyStatusEvent, connections, newServerState, resetConnections } from "../state/connections";
import { resetSaved, saved } from "../state/saved";
import { traffic } from "../state/traffic";

vi.mock("@tauri-apps/api/core", () => ({ invoke: vi.fn(), Channel: class {} }));

afterEach(cleanup);

/** A real run (`periscope eval run --save`): the demo suite's add and no-tool cases with the
 * fake model that picks echo for every third "plus" question, beside a variant that words add
 * so the model always picks it. */
const run = flakyRun as unknown as EvalRun;

describe("the Evals view's state", () => {
  it("turns the form into the engine's request, keeping only the suite's variants and cases", () => {
    const check = { outline: { name: null, cases: ["add", "echo"], variants: ["v2"], repeat: null }, problem: null };
    expect(toRequest(defaultForm(), check)).toEqual({ problem: "noModel" });
    expect(toRequest({ ...defaultForm(), models: ["m"] }, null)).toEqual({ problem: "noSuite" });
    const asked = toRequest({ ...defaultForm(), models: ["m"], variants: ["v2", "gone"], cases: ["add", "old"], repeat: 500, allowed: ["wipe"] }, check);
    expect(asked).toEqual({
      request: {
        models: ["m"],
        judge: null,
        repeat: 100,
        concurrency: 4,
        variants: ["v2"],
        cases: ["add"],
        approvals: { read_only: true, allowed: ["wipe"] },
        max_tokens: null,
      },
    });
  });

  it("counts repetitions as they end", () => {
    let live: EvalLive = { done: 0, total: 0, last: null };
    live = applyProgress(live, { kind: "planned", trials: 6 });
    expect(live.total).toBe(6);
    const done = { kind: "done" as const, done: 1, trials: 6, case: "add", model: "m", variant: "as-served", repetition: 1, outcome: "passed" as const, latency_ms: 12 };
    live = applyProgress(live, done);
    expect(live).toEqual({ done: 1, total: 6, last: done });
    expect(toggled(["a"], "b", true)).toEqual(["a", "b"]);
    expect(toggled(["a", "b"], "a", false)).toEqual(["b"]);
  });

  it("asks to allow by name every tool not marked read-only", () => {
    const tool = (name: string, read_only_hint: boolean | null, model_visible = true) =>
      ({ name, annotations: { read_only_hint, destructive_hint: null }, app: { model_visible, app_visible: true } }) as unknown as ToolView;
    const tools = [tool("add", true), tool("wipe", null), tool("order", false), tool("app_log", false, false)];
    expect(needsAllowing(tools).map((t) => t.name)).toEqual(["wipe", "order"]);
  });
});

describe("an eval run's words", () => {
  it("describes expectations, misses and bounds in English and Chinese", () => {
    expect(describeExpectation({ kind: "called", tool: "add" })).toBe("called add");
    expect(describeExpectation({ kind: "at_most", tool: "add", limit: 2 }, "zh-Hans")).toBe("调用 add 至多 2 次");
    const miss = describeMiss({
      kind: "arguments_differ",
      calls: 1,
      mismatch: { path: "/b", reason: { kind: "not_equal", expected: 3, actual: 4 } },
    });
    expect(miss).toBe("called 1×, arguments differ: /b is 4, expected 3");
    expect(describeMiss({ kind: "first_was", tool: null })).toBe("no tool was called");
    expect(describeBound({ kind: "tokens", limit: 100, used: 252, skipped: 8 })).toContain("8 repetitions were not run");
    expect(points(-0.333)).toBe("-33");
    expect(points(1)).toBe("+100");
  });

  it("words every reason a suite does not read", () => {
    const problems: EvalSuiteProblem[] = [
      { kind: "too_big", bytes: 2, limit: 1 },
      { kind: "unreadable", detail: "line 3" },
      { kind: "version", found: 2 },
      { kind: "no_cases" },
      { kind: "too_many_cases", count: 1001 },
      { kind: "no_id", index: 1 },
      { kind: "duplicate_id", id: "a" },
      { kind: "no_turn", id: "a" },
      { kind: "too_many_turns", id: "a", count: 21 },
      { kind: "expects_nothing", id: "a" },
      { kind: "bad_regex", id: "a", pattern: "(", detail: "unclosed" },
      { kind: "bad_schema", id: "a", tool: "t", detail: "bad" },
      { kind: "unknown_matcher", id: "a", matcher: "$regx" },
      { kind: "contradiction", id: "a", tool: "t" },
      { kind: "duplicate_variant", name: "v" },
      { kind: "reserved_variant", name: "as-served" },
      { kind: "zero_repeat" },
    ];
    for (const p of problems) {
      for (const lng of ["en", "zh-Hans"]) {
        const text = describeSuiteProblem(p, lng);
        expect(text, `${p.kind} ${lng}`).not.toMatch(/suiteProblem\.|\{\{/);
      }
    }
    expect(describeSuiteProblem({ kind: "expects_nothing", id: "a" }, "zh-Hans")).toContain("永远不会失败");
  });
});

describe("a kept eval run", () => {
  it("shows each case's pass rate per variant and the variant beyond noise or not", () => {
    render(<EvalReportView serverId="demo" run={run} open={null} />);
    const cell = (c: string, variant: string) =>
      screen.getAllByTestId("evals-cell").find((b) => b.dataset.case === c && b.dataset.variant === variant);
    expect(cell("add", "as-served")?.dataset.passed).toBe("2");
    expect(cell("add", "arithmetic-first")?.dataset.passed).toBe("3");
    expect(cell("add", "as-served")?.textContent).toContain("2/3");
    // 2 of 3 against 3 of 3 is within noise at these counts.
    const variant = screen.getByTestId("evals-variant");
    expect(variant.dataset.beyond).toBe("false");
    expect(variant.textContent).toContain(i18n.t("evals:report.withinNoise"));
    const totals = screen.getAllByTestId("evals-total").map((p) => `${p.dataset.variant} ${p.dataset.passed}/${p.dataset.trials}`);
    expect(totals).toEqual(["as-served 5/6", "arithmetic-first 6/6"]);
  });

  it("opens a case to its failed repetition's trace: the wrong tool, why each expectation failed", () => {
    const open = { case: "add", model: "fake-flaky", variant: "as-served", repetition: null };
    render(<EvalReportView serverId="demo" run={run} open={open} />);
    const trace = screen.getByTestId("evals-trace");
    expect(trace.dataset.outcome).toBe("failed");
    const calls = within(trace).getAllByTestId("evals-call");
    expect(calls[0]?.dataset.tool).toBe("echo");
    expect(calls[0]?.dataset.basis).toBe("read_only");
    const failed = within(trace)
      .getAllByTestId("evals-check")
      .filter((c) => c.dataset.verdict === "fail")
      .map((c) => c.textContent);
    expect(failed).toContain("✗ called add: never called");
    expect(failed).toContain("✗ called add first: echo came first");
    expect(within(trace).getByTestId("evals-answer").textContent).toBe("Here it is: echo: 2 plus 3");
    const reps = screen.getAllByTestId("evals-rep").map((r) => r.dataset.outcome);
    expect(reps.filter((o) => o === "passed")).toHaveLength(2);
  });

  it("links a call that ran to its History entry, and to its frame in Traffic only on the record it is in", () => {
    const open = { case: "add", model: "fake-flaky", variant: "as-served", repetition: null };
    const withHistory = (inTraffic: boolean): EvalRun => ({
      ...run,
      in_traffic: inTraffic,
      report: {
        ...run.report,
        trials: run.report.trials.map((t) => ({
          ...t,
          trace: { ...t.trace, calls: t.trace.calls.map((c) => (c.ran ? { ...c, ran: { ...c.ran, history_id: `h-${t.repetition}` } } : c)) },
        })),
      },
    });
    resetConnections();
    resetSaved();
    connections.update((s) => ({ ...s, servers: { demo: newServerState("demo") } }));
    render(<EvalReportView serverId="demo" run={withHistory(false)} open={open} />);
    const elsewhere = screen.getByTestId("evals-call-traffic") as HTMLButtonElement;
    expect(elsewhere.disabled).toBe(true);
    expect(elsewhere.title).toBe(i18n.t("evals:trace.otherRecord"));
    cleanup();
    render(<EvalReportView serverId="demo" run={withHistory(true)} open={open} />);
    const call = screen.getByTestId("evals-call-traffic") as HTMLButtonElement;
    const seq = Number(call.dataset.seq);
    const failed = run.report.trials.find((t) => t.case === "add" && t.variant === "as-served" && t.outcome === "failed")!;
    expect(seq).toBe(failed.trace.calls[0]!.ran!.timing.response_seq);
    fireEvent.click(call);
    expect(connections.getState().servers.demo?.tab).toBe("traffic");
    expect(traffic.getState().demo?.trafficView.selectedSeq).toBe(seq);
    fireEvent.click(screen.getByTestId("evals-call-history"));
    expect(connections.getState().servers.demo?.tab).toBe("saved");
    expect(saved.getState().servers.demo?.focus).toBe(`h-${failed.repetition}`);
  });

  it("takes the shown run's Traffic links off when a new connection starts a new record", () => {
    resetConnections();
    changeEvals("demo", (s) => ({ ...s, shown: { ...run, in_traffic: true } }));
    applyStatusEvent("demo", { state: "connecting" }, 1);
    expect(evals.getState().servers.demo?.shown?.in_traffic).toBe(false);
    expect(evals.getState().servers.demo?.shown?.id).toBe(run.id);
  });
});
