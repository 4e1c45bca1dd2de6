// A window over a list that lives in the engine: the list knows how many rows its filter keeps
// and holds only pages of rows around what is in sight, fetched when they come into view. When
// the record changes (new entries, a flag on an old one), the pages held are marked stale and
// the ones in sight are fetched again; nothing grows with the record. Fetches are coalesced:
// at most MAX_IN_FLIGHT at a time, and each one started is for what is in sight *now* (a
// scrollbar dragged across a million rows asks for the rows where it stops, not for every
// page it passed on the way).
import type { TrafficRow } from "../bindings/TrafficRow";

/** Rows one fetch asks for. */
export const PAGE = 100;
/** Pages held at most (the least recently shown go first): 4 000 rows. */
export const MAX_PAGES = 40;
/** Fetches under way at most: more would queue behind each other in the engine anyway. */
export const MAX_IN_FLIGHT = 2;
/**
 * Newest rows a following list is handed with each count (`changedTo`): a tall view's rows and
 * their margin, so the rows at the end are there as soon as the end moves.
 */
export const TAIL = 2 * PAGE;

/** Fetches rows `offset..offset + limit`; `count` is the window's count (the end can be read from the end). */
export type FetchRows = (offset: number, limit: number, count: number) => Promise<TrafficRow[]>;

interface Page {
  rows: TrafficRow[];
  stale: boolean;
  used: number;
  /** The `changed` the rows are of: a fetch started before a newer tail came is not kept. */
  generation: number;
}

export class RowWindow {
  /** How many rows the filter keeps (as last counted). */
  count = 0;
  private readonly pages = new Map<number, Page>();
  private readonly loading = new Set<number>();
  /** The pages to fetch, most wanted first (replaced by each `need`). */
  private wanted: number[] = [];
  private clock = 0;
  private generation = 0;
  private disposed = false;

  private readonly fetchRows: FetchRows;
  /** Told when fetched rows arrived (the view renders them). */
  private readonly onRows: () => void;
  /** Told when a fetch failed. */
  private readonly onError: (error: unknown) => void;

  constructor(fetchRows: FetchRows, onRows: () => void, onError: (error: unknown) => void = () => {}) {
    this.fetchRows = fetchRows;
    this.onRows = onRows;
    this.onError = onError;
  }

  /** The record changed and the filter now keeps `count` rows: what is held may be out of date. */
  changed(count: number): void {
    this.count = count;
    this.generation += 1;
    for (const page of this.pages.values()) page.stale = true;
  }

  /**
   * Like `changed`, with the newest rows of the same moment: `rows` are rows `from..count`
   * (`from` a multiple of PAGE). A list following the end shows them at once, where it would
   * otherwise show loading rows until a fetch for the new end came back, and, in a flood,
   * the end would move on before it did.
   */
  changedTo(count: number, from: number, rows: TrafficRow[]): void {
    this.changed(count);
    if (from % PAGE !== 0) return;
    for (let start = 0; start < rows.length; start += PAGE) {
      this.pages.set((from + start) / PAGE, {
        rows: rows.slice(start, start + PAGE),
        stale: false,
        used: ++this.clock,
        generation: this.generation,
      });
    }
    this.evict();
  }

  /** Row `index`, if its page is held (stale rows are shown until their fresh page comes). */
  rowAt(index: number): TrafficRow | undefined {
    if (index < 0 || index >= this.count) return undefined;
    const number = Math.floor(index / PAGE);
    const page = this.pages.get(number);
    if (!page) return undefined;
    page.used = ++this.clock;
    return page.rows[index - number * PAGE];
  }

  /**
   * Fetches the pages rows `first..=last` need, then one page either side, dropping what an
   * earlier call wanted and no longer does.
   */
  need(first: number, last: number): void {
    if (this.count === 0 || this.disposed) return;
    const lastPage = Math.floor((this.count - 1) / PAGE);
    const from = Math.min(lastPage, Math.max(0, Math.floor(first / PAGE)));
    const to = Math.min(lastPage, Math.max(from, Math.floor(Math.max(first, last) / PAGE)));
    const wanted: number[] = [];
    for (let number = from; number <= to; number += 1) wanted.push(number);
    if (to < lastPage) wanted.push(to + 1);
    if (from > 0) wanted.push(from - 1);
    this.wanted = wanted.filter((number) => !this.fresh(number));
    this.pump();
  }

  /** Index of the row with this seq among the rows held, or -1. */
  indexOfSeq(seq: number): number {
    for (const [number, page] of this.pages) {
      const at = page.rows.findIndex((row) => row.seq === seq);
      if (at >= 0) return number * PAGE + at;
    }
    return -1;
  }

  /** How many pages are held (for tests: the bound). */
  get held(): number {
    return this.pages.size;
  }

  /** No more fetches or callbacks (the filter changed; a new window took over). */
  dispose(): void {
    this.disposed = true;
  }

  /** Whether page `number` is held, up to date and complete. */
  private fresh(number: number): boolean {
    const page = this.pages.get(number);
    const expected = Math.min(PAGE, this.count - number * PAGE);
    return page !== undefined && !page.stale && page.rows.length >= expected;
  }

  /** Starts the most wanted fetches, up to MAX_IN_FLIGHT under way. */
  private pump(): void {
    while (!this.disposed && this.loading.size < MAX_IN_FLIGHT) {
      const number = this.wanted.find((n) => !this.loading.has(n) && !this.fresh(n));
      if (number === undefined) return;
      this.wanted = this.wanted.filter((n) => n !== number);
      this.load(number);
    }
  }

  private load(number: number): void {
    this.loading.add(number);
    const generation = this.generation;
    this.fetchRows(number * PAGE, PAGE, this.count).then(
      (rows) => {
        this.loading.delete(number);
        if (this.disposed) return;
        const held = this.pages.get(number);
        if (held && !held.stale && held.generation > generation) {
          // A tail of a later moment came meanwhile: it stays.
          this.pump();
          return;
        }
        this.pages.set(number, { rows, stale: false, used: ++this.clock, generation });
        this.evict();
        this.onRows();
        this.pump();
      },
      (error: unknown) => {
        this.loading.delete(number);
        if (this.disposed) return;
        this.onError(error);
        this.pump();
      },
    );
  }

  private evict(): void {
    while (this.pages.size > MAX_PAGES) {
      let oldest: number | null = null;
      let used = Infinity;
      for (const [number, page] of this.pages) {
        if (page.used < used) {
          used = page.used;
          oldest = number;
        }
      }
      if (oldest === null) return;
      this.pages.delete(oldest);
    }
  }
}

/**
 * Runs one task at a time: a run asked for while one is under way happens once, after it (the
 * newest ask wins). How counts follow a flood without piling queries up.
 */
export class OneAtATime {
  private running = false;
  private next: (() => Promise<void>) | null = null;

  run(task: () => Promise<void>): void {
    if (this.running) {
      this.next = task;
      return;
    }
    this.running = true;
    void task()
      .catch(() => {})
      .finally(() => {
        this.running = false;
        const next = this.next;
        this.next = null;
        if (next) this.run(next);
      });
  }
}
