import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { LoadRun } from "../bindings/LoadRun";
import type { LoadSummary } from "../bindings/LoadSummary";
import type { OpStats } from "../bindings/OpStats";
import { applyProgress, emptyLive } from "../state/load";
import { ConfirmLoadDialog } from "./ConfirmLoadDialog";
import { downsample, stepBands } from "./LoadCharts";
import { LoadReportView } from "./LoadReportView";

vi.mock("@tauri-apps/api/core", () => ({ invoke: vi.fn(), Channel: class {} }));

afterEach(cleanup);

const op = (over: Partial<OpStats>): OpStats => ({
  method: "tools/call",
  name: "work",
  completed: 100,
  failed: 0,
  error_rate_pct: 0,
  throughput: 50,
  latency: { p50_ms: 1, p90_ms: 2, p99_ms: 3, p999_ms: 4, max_ms: 5, mean_ms: 1.2 },
  failures: [],
  ...over,
});

const cpu = { own_cpu_s: 0.2, server_cpu_s: 1, own_over_server: 0.2 };

/** A concurrency ramp that broke at its third step (5 in flight), sampled and cut. */
const run: LoadRun = {
  id: "0001",
  not_kept: null,
  report: {
    version: 1,
    targets: ["chaos-server overload 4 20"],
    plan: {
      sessions: 1,
      in_flight: 1,
      rate: null,
      count: null,
      duration_ms: null,
      max_requests: 100000,
      ramp: { axis: "concurrency", start: 1, step: 2, steps: 5, step_ms: 1000, max_error_rate_pct: 1, max_p99_ms: null },
      timeout_ms: 30000,
    },
    workload: [{ method: "tools/call", name: "work", params: null, weight: 1 }],
    started: "2026-11-29T16:00:00Z",
    elapsed_ms: 3000,
    stopped: "breaking_point",
    sessions: { asked: 1, opened: 1, failed: [], lost: 0 },
    total: op({ method: null, name: null, completed: 300, failed: 40, error_rate_pct: 13.3, failures: [{ kind: "rpc", code: -32000, count: 40 }] }),
    methods: [],
    operations: [op({ completed: 300, failed: 40, failures: [{ kind: "rpc", code: -32000, count: 40 }] })],
    series: [
      { t_s: 1, completed: 50, failed: 0, p50_ms: 1, p99_ms: 2 },
      { t_s: 2, completed: 100, failed: 0, p50_ms: 1, p99_ms: 3 },
      { t_s: 3, completed: 150, failed: 40, p50_ms: 2, p99_ms: 9 },
    ],
    series_cut: false,
    resources: [],
    cpu,
    server_peak_rss_bytes: 4 * 1024 * 1024,
    connections_max: null,
    steps: [1, 3, 5].map((level, i) => ({
      step: i + 1,
      level,
      elapsed_ms: 1000,
      total: op({ completed: 50 * (i + 1), failed: i === 2 ? 40 : 0, error_rate_pct: i === 2 ? 26.7 : 0 }),
      crossed: i === 2 ? { threshold: "error_rate", measured_pct: 26.7, limit_pct: 1 } : null,
      cpu,
    })),
    breaking_point: { axis: "concurrency", step: 3, level: 5, crossed: { threshold: "error_rate", measured_pct: 26.7, limit_pct: 1 }, last_good_level: 3 },
    consistency: null,
    sample: { record: "/data/loads/s/0001.jsonl", requests: 10000, cut: true, sessions: 1 },
  },
};

describe("LoadReportView", () => {
  it("says where the ramp broke, the level that held, and each step", () => {
    render(<LoadReportView run={run} />);
    const breaking = screen.getByTestId("load-breaking-point");
    expect(breaking.textContent).toContain("step 3, 5 in flight: 26.7% failed (limit 1%)");
    expect(breaking.textContent).toContain("The last level that held: 3 in flight.");
    const steps = screen.getAllByTestId("load-step");
    expect(steps.map((s) => s.dataset.crossed)).toEqual(["false", "false", "true"]);
    expect(screen.getAllByTestId("load-band-broke")).toHaveLength(2);
    expect(screen.getByTestId("load-headline").textContent).toContain("300 requests in 3.0 s");
  });

  it("says a cut sample is a sample, and names failures by kind", () => {
    render(<LoadReportView run={run} />);
    expect(screen.getByTestId("load-sample").textContent).toContain("up to its first 10,000 requests (a sample of the run");
    expect(screen.getByTestId("load-failure").textContent).toContain("JSON-RPC error -32000 × 40");
    expect(screen.getByTestId("load-cost").textContent).toContain("Periscope 20% of theirs");
    expect(within(screen.getByTestId("load-charts")).getAllByTestId("load-second")).toHaveLength(3);
  });
});

describe("stepBands and live progress", () => {
  it("lays the steps end to end and keeps each second once", () => {
    expect(stepBands(run.report.steps).map((b) => [b.from_s, b.to_s, b.broke])).toEqual([
      [0, 1, false],
      [1, 2, false],
      [2, 3, true],
    ]);
    const point = { t_s: 1, completed: 5, failed: 0, p50_ms: 1, p99_ms: 2 };
    const progress = { elapsed_ms: 1000, completed: 5, failed: 0, point, resources: null, step: null };
    const once = applyProgress(emptyLive(), progress);
    const twice = applyProgress(once, { ...progress, elapsed_ms: 1100 });
    expect(twice.points).toHaveLength(1);
    expect(twice.latest?.elapsed_ms).toBe(1100);
  });
});

describe("downsample", () => {
  it("draws a long run's seconds in groups, a second's mean and the group's worst p99", () => {
    const day = Array.from({ length: 1200 }, (_, i) => ({ t_s: i + 1, completed: 10, failed: i % 2, p50_ms: 1, p99_ms: i === 3 ? 50 : 2 }));
    const { points, k } = downsample(day, 600);
    expect(k).toBe(2);
    expect(points).toHaveLength(600);
    expect(points[1]).toEqual({ t_s: 4, completed: 10, failed: 1, p50_ms: 1, p99_ms: 50 });
    expect(downsample(day.slice(0, 10), 600).k).toBe(1);
  });
});

describe("ConfirmLoadDialog", () => {
  it("names where, what, how hard, and the destructive tools before anything is sent", () => {
    const summary: LoadSummary = {
      targets: ["demo"],
      processes: 4,
      plan: { ...run.report.plan, sessions: 4, in_flight: 2, ramp: null, count: 500 },
      requests: [
        ['tools/call wipe {"all":true}', 1],
        ["tools/call echo", 3],
      ],
      destructive: ["wipe"],
      unlisted: [],
      compares_instances: false,
    };
    render(<ConfirmLoadDialog serverId="demo" summary={summary} />);
    const text = screen.getByTestId("load-summary").textContent ?? "";
    expect(text).toContain("4 sessions × 2 in flight each");
    expect(text).toContain("500 requests");
    expect(text).toContain("4 server processes");
    expect(screen.getAllByTestId("load-summary-request")).toHaveLength(2);
    expect(screen.getByTestId("load-summary-destructive").textContent).toContain("wipe");
    expect(screen.queryByTestId("load-summary-unlisted")).toBeNull();
  });
});
