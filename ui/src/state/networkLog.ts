// One server's HTTP exchanges (HTTP transports only): like the traffic log, an array appended
// in place, ordered by seq, with a version number views watch.
import type { HttpExchange } from "../bindings/HttpExchange";

export class NetworkLog {
  /** In seq order, no duplicates. Never copied on a live append. */
  exchanges: HttpExchange[] = [];
  /** Bumped on every change a view can see. */
  version = 0;
  private readonly seqs = new Set<number>();

  get lastSeq(): number {
    const last = this.exchanges[this.exchanges.length - 1];
    return last ? last.seq : 0;
  }

  /** Adds live exchanges; one already held (by seq) is skipped. Returns how many were added. */
  append(batch: readonly HttpExchange[]): number {
    let added = 0;
    let sorted = true;
    for (const exchange of batch) {
      if (this.seqs.has(exchange.seq)) continue;
      if (exchange.seq < this.lastSeq) sorted = false;
      this.seqs.add(exchange.seq);
      this.exchanges.push(exchange);
      added += 1;
    }
    if (added === 0) return 0;
    if (!sorted) this.exchanges = [...this.exchanges].sort((a, b) => a.seq - b.seq);
    this.version += 1;
    return added;
  }

  /** Merges exchanges fetched with `http_exchanges` (a catch-up) with what events brought. */
  merge(fetched: readonly HttpExchange[]): number {
    return this.append(fetched);
  }

  /** The exchange with this seq, if held. */
  get(seq: number): HttpExchange | undefined {
    if (!this.seqs.has(seq)) return undefined;
    return this.exchanges.find((e) => e.seq === seq);
  }
}
