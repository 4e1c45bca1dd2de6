import { useDeferredValue, useMemo } from "react";

/**
 * The items whose text holds every word of `query` (any case, any order): "get weather" finds
 * `get_current_weather`. The texts are lowered once per list, so a keystroke over 20 000 items
 * is one pass of `includes`.
 */
export function filterItems<T>(items: readonly T[], texts: readonly string[], query: string): readonly T[] {
  const words = query.toLowerCase().split(/[\s_\-./]+/).filter(Boolean);
  if (words.length === 0) return items;
  return items.filter((_, index) => {
    const text = texts[index] ?? "";
    return words.every((word) => text.includes(word));
  });
}

/** The searchable text of an item: its parts, lowered, with `_-./` read as spaces. */
export function searchText(...parts: ReadonlyArray<string | null | undefined>): string {
  return parts
    .filter((part): part is string => typeof part === "string")
    .join(" ")
    .toLowerCase()
    .replace(/[_\-./]+/g, " ");
}

/**
 * A list filtered as the user types; the filtering lags the input by a render when the list is
 * long (React's deferred value), so typing never waits for it.
 */
export function useFilteredItems<T>(items: readonly T[], textOf: (item: T) => string, query: string): readonly T[] {
  const deferred = useDeferredValue(query);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- textOf is a pure function of the item
  const texts = useMemo(() => items.map(textOf), [items]);
  return useMemo(() => filterItems(items, texts, deferred), [items, texts, deferred]);
}
