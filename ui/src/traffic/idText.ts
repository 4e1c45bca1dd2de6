// The Id column is a few characters wide. Ids of one session differ at their end (a load
// run's lane counts up from 2^40, 1099511627776; a UUID's tail is as unique as its head), so a
// long id shows its end, and the row's tooltip has it whole.

/** Characters the Id column shows. */
export const ID_SHOWN_CHARS = 8;

/** The id as the Id column shows it: whole when it fits, else "…" and its end. */
export function shownId(id: string): string {
  return id.length <= ID_SHOWN_CHARS ? id : `…${id.slice(-(ID_SHOWN_CHARS - 1))}`;
}
