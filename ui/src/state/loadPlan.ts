// The Load view's form as the user fills it, and the run it asks for: what to send (a tool with
// its arguments, a mix of saved calls, a recording's requests), how (sessions, requests in
// flight, closed loop or a fixed rate) and until when (a count, a duration, or a ramp to the
// breaking point). `toOptions` turns the form into the engine's plan, or names the field that
// stops it; the engine checks the plan again.
import type { LoadOptions } from "../bindings/LoadOptions";
import type { RampAxis } from "../bindings/RampAxis";

export type Source = "tool" | "saved" | "recording";
export type Pace = "closed" | "rate";
export type End = "count" | "duration" | "ramp";

export interface LoadForm {
  source: Source;
  tool: string;
  /** The tool's arguments as JSON text (an object). */
  args: string;
  /** Saved call id → weight; 0 leaves it out of the mix. */
  saved: Record<string, number>;
  /** The recording's path. */
  recording: string;
  sessions: number;
  inFlight: number;
  pace: Pace;
  rate: number;
  end: End;
  count: number;
  durationS: number;
  rampAxis: RampAxis;
  rampStart: number;
  rampStep: number;
  rampSteps: number;
  stepS: number;
  breakErrorPct: number;
  /** Empty: no p99 threshold. */
  breakP99Ms: string;
  maxRequests: number;
  timeoutS: number;
}

/** The engine's defaults (plan.rs): one session, one in flight, 1 000 requests, the 100 000 cap. */
export const defaultForm = (): LoadForm => ({
  source: "tool",
  tool: "",
  args: "{}",
  saved: {},
  recording: "",
  sessions: 1,
  inFlight: 1,
  pace: "closed",
  rate: 50,
  end: "count",
  count: 1000,
  durationS: 10,
  rampAxis: "concurrency",
  rampStart: 1,
  rampStep: 1,
  rampSteps: 10,
  stepS: 5,
  breakErrorPct: 1,
  breakP99Ms: "",
  maxRequests: 100_000,
  timeoutS: 30,
});

/** Why the form cannot be run: the field to fix. */
export type FormProblem = "noTool" | "args" | "noSaved" | "noRecording" | "sessions" | "inFlight" | "rate" | "count" | "duration" | "ramp" | "p99" | "cap" | "timeout";

const whole = (n: number) => Number.isInteger(n) && n >= 1;
const positive = (n: number) => Number.isFinite(n) && n > 0;

export function toOptions(form: LoadForm): { options: LoadOptions } | { problem: FormProblem } {
  let workload: LoadOptions["workload"];
  switch (form.source) {
    case "tool": {
      if (!form.tool) return { problem: "noTool" };
      let args: unknown;
      try {
        args = JSON.parse(form.args.trim() || "{}");
      } catch {
        return { problem: "args" };
      }
      if (typeof args !== "object" || args === null || Array.isArray(args)) return { problem: "args" };
      workload = { kind: "tool", name: form.tool, arguments: args as Record<string, unknown> };
      break;
    }
    case "saved": {
      const calls = Object.entries(form.saved)
        .filter(([, weight]) => weight > 0)
        .map(([id, weight]) => ({ id, weight: Math.round(weight) }));
      if (calls.length === 0) return { problem: "noSaved" };
      workload = { kind: "saved", calls };
      break;
    }
    case "recording":
      if (!form.recording) return { problem: "noRecording" };
      workload = { kind: "recording", path: form.recording };
      break;
  }
  if (!whole(form.sessions)) return { problem: "sessions" };
  if (!whole(form.inFlight)) return { problem: "inFlight" };
  // A rate ramp sets the pace itself; a concurrency ramp runs closed-loop.
  const ramping = form.end === "ramp";
  const rate = !ramping && form.pace === "rate" ? form.rate : null;
  if (rate !== null && !positive(rate)) return { problem: "rate" };
  if (form.end === "count" && !whole(form.count)) return { problem: "count" };
  if (form.end === "duration" && !positive(form.durationS)) return { problem: "duration" };
  let p99: number | null = null;
  if (ramping) {
    if (!positive(form.rampStart) || !(form.rampStep >= 0) || !whole(form.rampSteps) || !positive(form.stepS) || !(form.breakErrorPct >= 0))
      return { problem: "ramp" };
    if (form.breakP99Ms.trim()) {
      p99 = Number(form.breakP99Ms);
      if (!positive(p99)) return { problem: "p99" };
    }
  }
  if (!whole(form.maxRequests)) return { problem: "cap" };
  if (!positive(form.timeoutS)) return { problem: "timeout" };
  return {
    options: {
      workload,
      plan: {
        sessions: form.sessions,
        in_flight: form.inFlight,
        rate,
        count: form.end === "count" ? form.count : null,
        duration_ms: form.end === "duration" ? Math.round(form.durationS * 1000) : null,
        max_requests: form.maxRequests,
        ramp: ramping
          ? {
              axis: form.rampAxis,
              start: form.rampStart,
              step: form.rampStep,
              steps: form.rampSteps,
              step_ms: Math.round(form.stepS * 1000),
              max_error_rate_pct: form.breakErrorPct,
              max_p99_ms: p99,
            }
          : null,
        timeout_ms: Math.round(form.timeoutS * 1000),
      },
    },
  };
}
