// The Check view of each server: the options chosen, a run in progress (its steps as the
// engine tells them), and the last run the Rust side kept (report and what changed since the
// one before). Verdicts, grouping order and the comparison are the engine's; this only holds
// them for the view.
import type { Area } from "../bindings/Area";
import type { CheckProgress } from "../bindings/CheckProgress";
import type { CheckResult } from "../bindings/CheckResult";
import type { CheckRun } from "../bindings/CheckRun";
import type { CheckRunOptions } from "../bindings/CheckRunOptions";
import type { Era } from "../bindings/Era";
import { Notifier, useNotifier, withEntry } from "./notifier";

export interface CheckLive {
  /** The eras being asked in, in the order their sessions opened. */
  asking: Era[];
  /** The tools about to be called, per era. */
  willCall: { era: Era; tools: string[] }[];
  /** The verdicts so far. */
  judged: CheckResult[];
}

export interface ServerCheck {
  options: CheckRunOptions;
  /** A run in progress, or null. */
  live: CheckLive | null;
  last: CheckRun | null;
  /** Whether the kept run was asked for yet. */
  loaded: boolean;
  error: string | null;
  /** Passed and skipped rules listed too (failures and warnings always are). */
  showAll: boolean;
}

export interface CheckState {
  servers: Record<string, ServerCheck>;
}

/** Calling tools is off until the user turns it on (a call can change the world); every area is asked. */
export const defaultOptions = (): CheckRunOptions => ({ eras: "auto", calls: { named: [], all: false, none: true }, skip: [] });

/** The order areas are shown in (the engine's `Area::ALL`); a record, so no area is left out. */
export const AREA_ORDER: Record<Area, number> = {
  lifecycle: 0,
  eras: 1,
  json_rpc: 2,
  lists: 3,
  tools: 4,
  resources: 5,
  prompts: 6,
  utilities: 7,
  http: 8,
  stdio: 9,
};

/** Every area, in order. */
export const AREAS: readonly Area[] = (Object.keys(AREA_ORDER) as Area[]).sort((a, b) => AREA_ORDER[a] - AREA_ORDER[b]);

const fresh = (): ServerCheck => ({
  options: defaultOptions(),
  live: null,
  last: null,
  loaded: false,
  error: null,
  showAll: false,
});
const EMPTY = fresh();

export const checks = new Notifier<CheckState>({ servers: {} });

export const useServerCheck = (id: string): ServerCheck => useNotifier(checks, (s) => s.servers[id] ?? EMPTY);

export function changeCheck(id: string, f: (s: ServerCheck) => ServerCheck, soon = false): void {
  const apply = (state: CheckState) => ({ ...state, servers: withEntry(state.servers, id, fresh, f) });
  if (soon) checks.updateSoon(apply);
  else checks.update(apply);
}

/** One step of a run, into its live state. */
export function applyStep(live: CheckLive, step: CheckProgress): CheckLive {
  switch (step.kind) {
    case "asking":
      return live.asking.includes(step.era) ? live : { ...live, asking: [...live.asking, step.era] };
    case "will_call":
      return { ...live, willCall: [...live.willCall.filter((w) => w.era !== step.era), { era: step.era, tools: step.tools }] };
    case "judged":
      return { ...live, judged: [...live.judged, step.result] };
  }
}

export const emptyLive = (): CheckLive => ({ asking: [], willCall: [], judged: [] });
