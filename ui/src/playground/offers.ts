// Text offered to a server's Playground message box from elsewhere: an MCP App's `ui/message`
// the user accepted lands here, in the box, and is sent to a model only when the user sends
// it (consent before effect: accepting the app's message does not start a model turn).
import type { ContentBlock } from "../bindings/ContentBlock";

type Listener = (text: string) => void;

const waiting = new Map<string, string>();
const listeners = new Map<string, Set<Listener>>();

/** Offers `text` to `serverId`'s message box: now if it is shown, else when it next is. */
export function offerToComposer(serverId: string, text: string): void {
  const open = listeners.get(serverId);
  if (open && open.size > 0) for (const listener of open) listener(text);
  else waiting.set(serverId, text);
}

/** The message box of `serverId` takes what waits for it, and what comes while it is shown. */
export function followOffers(serverId: string, listener: Listener): () => void {
  const early = waiting.get(serverId);
  if (early !== undefined) {
    waiting.delete(serverId);
    listener(early);
  }
  const set = listeners.get(serverId) ?? new Set<Listener>();
  set.add(listener);
  listeners.set(serverId, set);
  return () => {
    set.delete(listener);
  };
}

/** The text of a `ui/message`'s content as the engine read it: its text blocks. */
export function messageText(blocks: ContentBlock[]): string {
  return blocks.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n\n");
}
