// The Evals view of each server: the suite as typed and what the engine made of it, the run
// form, a run under way (repetitions done of all), the kept runs, the one shown with the case
// opened to its repetitions and the repetition opened to its trace, and the comparison with an
// earlier run. Grading, figures and comparisons are the engine's; this only holds them.
import type { EvalCaseComparison } from "../bindings/EvalCaseComparison";
import type { EvalProgress } from "../bindings/EvalProgress";
import type { EvalRun } from "../bindings/EvalRun";
import type { EvalRunInfo } from "../bindings/EvalRunInfo";
import type { EvalRunRequest } from "../bindings/EvalRunRequest";
import type { EvalSuiteCheck } from "../bindings/EvalSuiteCheck";
import { onSessionStart } from "./connections";
import { Notifier, useNotifier, withEntry } from "./notifier";

export interface EvalForm {
  /** Provider ids. */
  models: string[];
  judge: string | null;
  repeat: number;
  concurrency: number;
  variants: string[];
  /** Empty: all. */
  cases: string[];
  readOnly: boolean;
  /** Tools allowed by name. */
  allowed: string[];
  maxTokens: number | null;
}

/** A case of the shown run opened: which model and variant, and the repetition shown. */
export interface OpenCase {
  case: string;
  model: string;
  variant: string;
  repetition: number | null;
}

export interface EvalLive {
  done: number;
  total: number;
  last: Extract<EvalProgress, { kind: "done" }> | null;
}

export interface ServerEvals {
  /** null until read from the Rust side. */
  text: string | null;
  /** What the saved text holds; null until saved or checked once. */
  check: EvalSuiteCheck | null;
  saving: boolean;
  form: EvalForm;
  running: boolean;
  live: EvalLive | null;
  runs: EvalRunInfo[];
  loaded: boolean;
  shown: EvalRun | null;
  open: OpenCase | null;
  baseline: string | null;
  comparison: EvalCaseComparison[] | null;
  error: string | null;
}

export interface EvalsState {
  servers: Record<string, ServerEvals>;
}

export const defaultForm = (): EvalForm => ({
  models: [],
  judge: null,
  repeat: 3,
  concurrency: 4,
  variants: [],
  cases: [],
  readOnly: true,
  allowed: [],
  maxTokens: null,
});

const fresh = (): ServerEvals => ({
  text: null,
  check: null,
  saving: false,
  form: defaultForm(),
  running: false,
  live: null,
  runs: [],
  loaded: false,
  shown: null,
  open: null,
  baseline: null,
  comparison: null,
  error: null,
});
const EMPTY = fresh();

export const evals = new Notifier<EvalsState>({ servers: {} });

export const useServerEvals = (id: string): ServerEvals => useNotifier(evals, (s) => s.servers[id] ?? EMPTY);

export function changeEvals(id: string, f: (s: ServerEvals) => ServerEvals, soon = false): void {
  const apply = (state: EvalsState) => ({ ...state, servers: withEntry(state.servers, id, fresh, f) });
  if (soon) evals.updateSoon(apply);
  else evals.update(apply);
}

// A new connection starts a new record: the shown run's frames are no longer the ones Traffic
// shows, so its calls' Traffic links go off (the Rust side says so again when a run is read).
onSessionStart((id) => {
  if (!evals.getState().servers[id]?.shown?.in_traffic) return;
  changeEvals(id, (s) => (s.shown ? { ...s, shown: { ...s.shown, in_traffic: false } } : s));
});

/** One update of a running run. */
export function applyProgress(live: EvalLive, p: EvalProgress): EvalLive {
  switch (p.kind) {
    case "planned":
      return { ...live, total: p.trials };
    case "done":
      return { done: p.done, total: p.trials, last: p };
    case "bound":
      return live;
  }
}

export type FormProblem = "noModel" | "noSuite";

/** The form as the engine's request, or what keeps it from being one. */
export function toRequest(form: EvalForm, check: EvalSuiteCheck | null): { request: EvalRunRequest } | { problem: FormProblem } {
  if (!check?.outline) return { problem: "noSuite" };
  if (form.models.length === 0) return { problem: "noModel" };
  const known = (names: string[], of: string[]) => names.filter((n) => of.includes(n));
  return {
    request: {
      models: form.models,
      judge: form.judge,
      repeat: Math.max(1, Math.min(100, Math.round(form.repeat))),
      concurrency: Math.max(1, Math.min(32, Math.round(form.concurrency))),
      variants: known(form.variants, check.outline.variants),
      cases: known(form.cases, check.outline.cases),
      approvals: { read_only: form.readOnly, allowed: form.allowed },
      max_tokens: form.maxTokens,
    },
  };
}

/** `item` added to or taken from `list`. */
export function toggled(list: string[], item: string, on: boolean): string[] {
  return on ? (list.includes(item) ? list : [...list, item]) : list.filter((x) => x !== item);
}
