// Follow-the-tail scrolling for the live logs (traffic, HTTP exchanges, console): while the view
// is at the bottom, new entries keep it there; scrolling up stops that, scrolling back resumes.
import { useCallback, useLayoutEffect, useRef } from "react";

/**
 * `grown` changes when entries are added. Without `follow`, the hook remembers by itself whether
 * the view is at the bottom; with it (the Traffic tab keeps it in its state), a scroll reports
 * the change through `onFollowChange`. `slack` is how near the bottom counts as at it, in px.
 */
export function useFollowTail<T extends HTMLElement = HTMLDivElement>(
  grown: unknown,
  slack: number,
  follow?: boolean,
  onFollowChange?: (follow: boolean) => void,
) {
  const ref = useRef<T>(null);
  const atBottom = useRef(true);

  useLayoutEffect(() => {
    const element = ref.current;
    if (element && (follow ?? atBottom.current)) element.scrollTop = element.scrollHeight;
  }, [grown, follow]);

  const onScroll = useCallback(() => {
    const element = ref.current;
    if (!element) return;
    const bottom = element.scrollHeight - element.scrollTop - element.clientHeight < slack;
    atBottom.current = bottom;
    if (follow !== undefined && bottom !== follow) onFollowChange?.(bottom);
  }, [slack, follow, onFollowChange]);

  return { ref, onScroll };
}
