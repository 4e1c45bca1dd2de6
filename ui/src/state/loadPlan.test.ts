import { describe, expect, it } from "vitest";
import { defaultForm, toOptions, type LoadForm } from "./loadPlan";

const form = (over: Partial<LoadForm>): LoadForm => ({ ...defaultForm(), tool: "echo", ...over });

describe("toOptions", () => {
  it("makes a closed-loop count of one tool call with its arguments", () => {
    const out = toOptions(form({ args: '{"message":"hi"}', sessions: 4, inFlight: 8, count: 500 }));
    expect(out).toEqual({
      options: {
        workload: { kind: "tool", name: "echo", arguments: { message: "hi" } },
        plan: {
          sessions: 4,
          in_flight: 8,
          rate: null,
          count: 500,
          duration_ms: null,
          max_requests: 100_000,
          ramp: null,
          timeout_ms: 30_000,
        },
      },
    });
  });

  it("makes an open loop for a duration, and a ramp that sets its own pace", () => {
    const open = toOptions(form({ pace: "rate", rate: 120, end: "duration", durationS: 2.5 }));
    expect("options" in open && open.options.plan).toMatchObject({ rate: 120, duration_ms: 2500, count: null });
    const ramp = toOptions(form({ pace: "rate", end: "ramp", rampStart: 2, rampStep: 2, rampSteps: 5, stepS: 0.5, breakP99Ms: "40" }));
    expect("options" in ramp && ramp.options.plan).toMatchObject({
      rate: null,
      count: null,
      ramp: { axis: "concurrency", start: 2, step: 2, steps: 5, step_ms: 500, max_error_rate_pct: 1, max_p99_ms: 40 },
    });
  });

  it("mixes the saved calls given a weight, and leaves the others out", () => {
    const out = toOptions(form({ source: "saved", saved: { a: 3, b: 0, c: 1 } }));
    expect("options" in out && out.options.workload).toEqual({ kind: "saved", calls: [{ id: "a", weight: 3 }, { id: "c", weight: 1 }] });
    expect(toOptions(form({ source: "saved", saved: { a: 0 } }))).toEqual({ problem: "noSaved" });
  });

  it("names the field that stops a run", () => {
    expect(toOptions(form({ tool: "" }))).toEqual({ problem: "noTool" });
    expect(toOptions(form({ args: "[1]" }))).toEqual({ problem: "args" });
    expect(toOptions(form({ args: "{" }))).toEqual({ problem: "args" });
    expect(toOptions(form({ sessions: 0 }))).toEqual({ problem: "sessions" });
    expect(toOptions(form({ inFlight: 1.5 }))).toEqual({ problem: "inFlight" });
    expect(toOptions(form({ pace: "rate", rate: 0 }))).toEqual({ problem: "rate" });
    expect(toOptions(form({ end: "duration", durationS: 0 }))).toEqual({ problem: "duration" });
    expect(toOptions(form({ end: "ramp", rampSteps: 0 }))).toEqual({ problem: "ramp" });
    expect(toOptions(form({ end: "ramp", breakP99Ms: "fast" }))).toEqual({ problem: "p99" });
    expect(toOptions(form({ source: "recording" }))).toEqual({ problem: "noRecording" });
    expect(toOptions(form({ maxRequests: 0 }))).toEqual({ problem: "cap" });
  });
});
