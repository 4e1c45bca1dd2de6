// Suggestions from `completion/complete` while the user types: asked for 250 ms after the last
// keystroke (or on focus), and an answer to an older value is dropped.
import { useEffect, useRef, useState } from "react";
import type { Completion } from "../bindings/Completion";
import { errorMessage } from "../ipc";

export const DEBOUNCE_MS = 250;

export interface CompletionState {
  values: string[];
  /** The server has more than it sent. */
  more: boolean;
  error: string | null;
  loading: boolean;
}

const IDLE: CompletionState = { values: [], more: false, error: null, loading: false };

/**
 * `fetch(value)` asks the server; `key` names what is completed (the argument and the other
 * arguments' values): a change of either asks again. Nothing is asked while `active` is false.
 */
export function useCompletion(
  fetch: (value: string) => Promise<Completion>,
  value: string,
  key: string,
  active: boolean,
): CompletionState {
  const [state, setState] = useState<CompletionState>(IDLE);
  const latest = useRef(0);
  const fetchRef = useRef(fetch);
  useEffect(() => {
    fetchRef.current = fetch;
  }, [fetch]);
  useEffect(() => {
    if (!active) return;
    const ask = ++latest.current;
    const timer = setTimeout(() => {
      setState((s) => ({ ...s, loading: true }));
      fetchRef.current(value).then(
        (c) => {
          if (latest.current !== ask) return;
          setState({ values: c.values, more: c.has_more || (c.total !== null && c.total > c.values.length), error: null, loading: false });
        },
        (error: unknown) => {
          if (latest.current !== ask) return;
          setState({ values: [], more: false, error: errorMessage(error), loading: false });
        },
      );
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [value, key, active]);
  return active ? state : IDLE;
}
