// The Load view of each server: the form as the user left it, where a run is (being prepared,
// waiting for the user's confirmation of its summary, running with its figures a second), the
// runs the Rust side kept, the one shown, and what it is compared with. Figures, thresholds and
// comparisons are the engine's; this only holds them for the view.
import type { Comparison } from "../bindings/Comparison";
import type { LoadProgress } from "../bindings/LoadProgress";
import type { LoadRun } from "../bindings/LoadRun";
import type { LoadRunInfo } from "../bindings/LoadRunInfo";
import type { LoadSummary } from "../bindings/LoadSummary";
import type { SeriesPoint } from "../bindings/SeriesPoint";
import { defaultForm, type LoadForm } from "./loadPlan";
import { Notifier, useNotifier, withEntry } from "./notifier";

export type LoadPhase = "idle" | "preparing" | "confirming" | "running";

/** A run as it goes: each second's point, and the newest update. */
export interface LoadLive {
  points: SeriesPoint[];
  latest: LoadProgress | null;
}

export interface ServerLoad {
  form: LoadForm;
  phase: LoadPhase;
  /** What the prepared run will do, while the user decides. */
  summary: LoadSummary | null;
  live: LoadLive | null;
  /** The kept runs, newest first. */
  runs: LoadRunInfo[];
  loaded: boolean;
  /** The run shown: the one that just ended, or one picked from the list. */
  shown: LoadRun | null;
  /** The kept run the shown one is compared with, and the comparison. */
  baseline: string | null;
  comparison: Comparison | null;
  error: string | null;
}

export interface LoadState {
  servers: Record<string, ServerLoad>;
}

const fresh = (): ServerLoad => ({
  form: defaultForm(),
  phase: "idle",
  summary: null,
  live: null,
  runs: [],
  loaded: false,
  shown: null,
  baseline: null,
  comparison: null,
  error: null,
});
const EMPTY = fresh();

/** Points a live chart keeps: an hour (a longer run's report has them all). */
const LIVE_POINTS = 3600;

export const loads = new Notifier<LoadState>({ servers: {} });

export const useServerLoad = (id: string): ServerLoad => useNotifier(loads, (s) => s.servers[id] ?? EMPTY);

export function changeLoad(id: string, f: (s: ServerLoad) => ServerLoad, soon = false): void {
  const apply = (state: LoadState) => ({ ...state, servers: withEntry(state.servers, id, fresh, f) });
  if (soon) loads.updateSoon(apply);
  else loads.update(apply);
}

/** One update of a running run, into its live state. */
export function applyProgress(live: LoadLive, p: LoadProgress): LoadLive {
  const point = p.point;
  const newest = live.points[live.points.length - 1];
  const known = point !== null && newest !== undefined && newest.t_s >= point.t_s;
  const points = point === null || known ? live.points : [...live.points, point].slice(-LIVE_POINTS);
  return { points, latest: p };
}

export const emptyLive = (): LoadLive => ({ points: [], latest: null });
