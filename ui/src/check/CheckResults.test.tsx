import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CheckReport } from "../bindings/CheckReport";
import type { CheckResult } from "../bindings/CheckResult";
import { applyStep, emptyLive } from "../state/check";
import { recordOf } from "./actions";
import { CheckResults } from "./CheckResults";

vi.mock("@tauri-apps/api/core", () => ({ invoke: vi.fn(), Channel: class {} }));

afterEach(cleanup);

const result = (over: Partial<CheckResult>): CheckResult => ({
  rule: "jsonrpc.unknown-method",
  area: "json_rpc",
  verdict: "pass",
  era: "legacy",
  official_scenario: null,
  spec: "https://modelcontextprotocol.io/specification/2025-11-25/basic#responses",
  frames: [],
  message: "answered -32601",
  hint: null,
  skipped: null,
  ...over,
});

const report = (results: CheckResult[]): CheckReport => ({
  target: "demo",
  server: "demo 1.0",
  eras: [
    { era: "modern", protocol_version: "2026-07-28", record: "/data/checks/demo.jsonl" },
    { era: "legacy", protocol_version: "2025-11-25", record: "/data/checks/demo.legacy.jsonl" },
  ],
  results,
  counts: { pass: 0, fail: 0, warning: 0, skipped: 0 },
  started_ms: 0,
  took_ms: 0,
  unreachable: null,
  audit: null,
});

describe("the check's results", () => {
  const failing = result({
    verdict: "fail",
    era: "modern",
    frames: [4, 9],
    message: "periscope/no-such-method got a result {}",
    hint: "Answer an unknown method with a JSON-RPC error, code -32601.",
  });
  const results = [
    result({ rule: "utilities.ping", area: "utilities" }),
    failing,
    result({ rule: "resources.subscribe", area: "resources", verdict: "skipped", skipped: { why: "not_declared", capability: "resources.subscribe" } }),
    result({ rule: "lifecycle.instructions", area: "lifecycle", verdict: "warning", hint: "Send instructions as one string." }),
  ];

  it("groups by area in the engine's order, lists what broke, and counts each area", () => {
    render(<CheckResults results={results} report={report(results)} changes={null} showAll={false} />);
    const areas = screen.getAllByRole("heading").map((h) => h.closest("section")?.dataset.testid);
    expect(areas).toEqual(["check-area-lifecycle", "check-area-json_rpc", "check-area-resources", "check-area-utilities"]);
    // Passed and skipped are counted, not listed.
    expect(screen.queryByTestId("check-result-utilities.ping-legacy")).toBeNull();
    expect(screen.queryByTestId("check-result-resources.subscribe-legacy")).toBeNull();
    expect(screen.getByTestId("check-area-utilities").textContent).toContain("1 passed");
    expect(screen.getByTestId("check-result-jsonrpc.unknown-method-modern").dataset.verdict).toBe("fail");
    expect(screen.getByTestId("check-result-lifecycle.instructions-legacy").dataset.verdict).toBe("warning");
  });

  it("opens a result to its fix in the UI's words, its spec link and its frames", () => {
    render(<CheckResults results={results} report={report(results)} changes={null} showAll={false} />);
    const row = screen.getByTestId("check-result-jsonrpc.unknown-method-modern");
    expect(within(row).queryByTestId("check-result-detail")).toBeNull();
    fireEvent.click(within(row).getByRole("button", { expanded: false }));
    expect(within(row).getByTestId("check-fix").textContent).toContain("-32601");
    expect(row.textContent).toContain(failing.spec);
    expect(within(row).getByTestId("check-frame-4")).toBeTruthy();
    expect(within(row).getByTestId("check-frame-9")).toBeTruthy();
  });

  it("says why a rule was skipped, and marks the failures new since the last run", () => {
    render(
      <CheckResults
        results={results}
        report={report(results)}
        changes={{ since_ms: 0, new_failures: [{ rule: "jsonrpc.unknown-method", era: "modern", before: "pass", after: "fail" }], fixed: [] }}
        showAll={true}
      />,
    );
    expect(within(screen.getByTestId("check-result-jsonrpc.unknown-method-modern")).getByTestId("check-new")).toBeTruthy();
    expect(within(screen.getByTestId("check-result-lifecycle.instructions-legacy")).queryByTestId("check-new")).toBeNull();
    const skipped = screen.getByTestId("check-result-resources.subscribe-legacy");
    fireEvent.click(within(skipped).getByRole("button", { expanded: false }));
    expect(skipped.textContent).toContain("does not declare resources.subscribe");
  });

  it("finds a result's frames in its era's record, a rule asked once in the first era's", () => {
    const r = report([]);
    expect(recordOf(r, result({ era: "legacy" }))).toBe("/data/checks/demo.legacy.jsonl");
    expect(recordOf(r, result({ era: null }))).toBe("/data/checks/demo.jsonl");
  });

  it("gathers a run's steps as they come", () => {
    let live = applyStep(emptyLive(), { kind: "asking", era: "modern" });
    live = applyStep(live, { kind: "asking", era: "modern" });
    live = applyStep(live, { kind: "will_call", era: "modern", tools: ["echo"] });
    live = applyStep(live, { kind: "will_call", era: "modern", tools: ["echo", "add"] });
    live = applyStep(live, { kind: "judged", result: failing });
    expect(live.asking).toEqual(["modern"]);
    expect(live.willCall).toEqual([{ era: "modern", tools: ["echo", "add"] }]);
    expect(live.judged).toEqual([failing]);
  });
});
