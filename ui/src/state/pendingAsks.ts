// The server requests waiting for the user, oldest first, across servers: a queue changed in
// place. Adding, finding and removing one ask is O(1), so a server flooding 10 000
// elicitations costs 10 000 small steps, not 10 000 copies of an ever longer list (O(n²)).
// Views read the first ask and the count, which are the same values until they change.
import type { PendingAsk } from "../bindings/PendingAsk";

export class PendingAsks {
  // A Map keeps insertion order: its first entry is the oldest ask.
  private readonly byId = new Map<number, PendingAsk>();

  /** Adds `ask` unless one with its id is waiting; true when added. */
  add(ask: PendingAsk): boolean {
    if (this.byId.has(ask.ask_id)) return false;
    this.byId.set(ask.ask_id, ask);
    return true;
  }

  /** Removes the ask with `askId`; true when it was waiting. */
  remove(askId: number): boolean {
    return this.byId.delete(askId);
  }

  get size(): number {
    return this.byId.size;
  }

  /** The oldest waiting ask. */
  first(): PendingAsk | undefined {
    for (const ask of this.byId.values()) return ask;
    return undefined;
  }

  /** Every waiting ask, oldest first (a copy). */
  list(): PendingAsk[] {
    return [...this.byId.values()];
  }
}
