// How every state manager tells React about changes (read with useSyncExternalStore).
//
// Small state is immutable: an update makes new objects along the path, so a selector returns
// the same reference until its slice changes. The big, fast-growing things (a server's traffic,
// HTTP exchanges and console) are mutable logs appended in place, each with a `version` number
// that selectors watch instead (see traffic/log.ts). Live events change the state at once but
// tell the views at most once per animation frame (`changedSoon`), so a server flooding frames
// costs one render per frame, not one per batch; user actions tell them at once (`changed`).
import { useSyncExternalStore } from "react";

export type Schedule = (flush: () => void) => void;

const frameSchedule: Schedule = (flush) => {
  if (typeof requestAnimationFrame === "function") requestAnimationFrame(flush);
  else setTimeout(flush, 16);
};

let schedule: Schedule = frameSchedule;

/** For tests: run "the next frame" when the test says so (or back to animation frames). */
export function setFrameSchedule(next: Schedule | null): void {
  schedule = next ?? frameSchedule;
}

/** A piece of state with listeners: one per state manager. */
export class Notifier<S> {
  private state: S;
  private readonly listeners = new Set<() => void>();
  private flushPending = false;

  constructor(state: S) {
    this.state = state;
  }

  getState = (): S => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Tells every view now. */
  private emit(): void {
    this.flushPending = false;
    for (const listener of [...this.listeners]) listener();
  }

  /** Tells every view on the next frame (many calls, one render). */
  changedSoon(): void {
    if (this.flushPending) return;
    this.flushPending = true;
    schedule(() => {
      if (this.flushPending) this.emit();
    });
  }

  /** Replaces the state and tells the views at once (for user actions). */
  update(change: (state: S) => S): void {
    const next = change(this.state);
    if (next === this.state) return;
    this.state = next;
    this.emit();
  }

  /** Replaces the state and tells the views on the next frame (for live events). */
  updateSoon(change: (state: S) => S): void {
    const next = change(this.state);
    if (next === this.state) return;
    this.state = next;
    this.changedSoon();
  }
}

/** Reads a slice of a manager's state; re-renders only when it changes (by ===). */
export function useNotifier<S, T>(notifier: Notifier<S>, selector: (state: S) => T): T {
  return useSyncExternalStore(notifier.subscribe, () => selector(notifier.getState()));
}

/** Per-server state keyed by server id: replaces one server's entry (made with `fresh`). */
export function withEntry<V>(
  map: Record<string, V>,
  id: string,
  fresh: () => V,
  change: (value: V) => V,
): Record<string, V> {
  const current = map[id];
  const next = change(current ?? fresh());
  if (next === current) return map;
  return { ...map, [id]: next };
}
