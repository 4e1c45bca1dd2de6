import { useEffect, useState } from "react";

/**
 * `Date.now()`, again every `intervalMs` while it is not null (for elapsed times of work in
 * progress: connecting, a resource read, the traffic catching up). Null stops the clock.
 */
export function useNow(intervalMs: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (intervalMs === null) return;
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** Work that has gone on this long shows a spinner; quicker work shows nothing (no flash). */
export const SPINNER_AFTER_MS = 300;
