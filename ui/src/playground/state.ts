// The playground of each server: its conversation and what the transcript shows, built from
// a turn's events as they stream (the model's words, each tool call with its arguments and,
// while it waits, the approval buttons, its result, the turn's tokens and time). Kept here,
// not in the view, so switching tabs mid-turn loses nothing.
import type { AgentEvent } from "../bindings/AgentEvent";
import type { Approval } from "../bindings/Approval";
import type { Attachment } from "../bindings/Attachment";
import type { ChatBlock } from "../bindings/ChatBlock";
import type { ChatEvent } from "../bindings/ChatEvent";
import type { Conversation } from "../bindings/Conversation";
import type { Finding } from "../bindings/Finding";
import type { TurnStats } from "../bindings/TurnStats";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { errorMessage, playgroundIpc } from "../ipc";
import { Notifier, useNotifier } from "../state/notifier";

export type Item =
  | { kind: "user"; text: string; attached: string[] }
  | { kind: "text"; round: number; text: string }
  | {
      kind: "tool";
      id: string;
      name: string;
      input: JsonValue;
      serverId: string | null;
      tool: string | null;
      waiting: boolean;
      /** Allowed always earlier, but the tool changed since: asked again. */
      changedSinceAllowed: boolean;
      approval: Approval | null;
      /** What the result holds that is aimed at the model (the engine's audit, as the result
       * came; none in a conversation reopened from disk, which keeps what the model read). */
      result: { isError: boolean; text: string; findings: Finding[] } | null;
      /** The call's History entry, when it reached a server in this app run (none reopened). */
      historyId: string | null;
    }
  | { kind: "stats"; stats: TurnStats }
  | { kind: "error"; message: string };

export interface Chat {
  conversation: Conversation | null;
  items: Item[];
  busy: boolean;
  error: string | null;
  exported: string | null;
}

const fresh = (): Chat => ({ conversation: null, items: [], busy: false, error: null, exported: null });

const chats = new Notifier<Record<string, Chat>>({});

function change(key: string, f: (chat: Chat) => Chat): void {
  chats.update((all) => ({ ...all, [key]: f(all[key] ?? fresh()) }));
}

export function useChat(key: string): Chat {
  return useNotifier(chats, (all) => all[key]) ?? EMPTY;
}
const EMPTY = fresh();

/** A block's words, for the transcript and tool results. */
export function blockText(block: ChatBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
      return `[image ${block.mime}]`;
    case "tool_use":
      return `${block.name} ${JSON.stringify(block.input)}`;
    case "tool_result":
      return block.content.map(blockText).join("\n");
  }
}

/** How an attachment is named on the user's message. */
export function attachmentLabel(a: Attachment): string {
  switch (a.kind) {
    case "prompt":
      return `/${a.name}`;
    case "resource":
      return a.uri;
    case "skill":
      return `skill ${a.uri}`;
  }
}

type ToolItem = Extract<Item, { kind: "tool" }>;

function toolItem(id: string, name: string, input: JsonValue): ToolItem {
  return {
    kind: "tool",
    id,
    name,
    input,
    serverId: null,
    tool: null,
    waiting: false,
    changedSinceAllowed: false,
    approval: null,
    result: null,
    historyId: null,
  };
}

/** One turn event applied to the transcript. */
export function applyEvent(items: Item[], event: ChatEvent): Item[] {
  if (event.kind === "approve") {
    // The ask can overtake the turn's own `tool_call` event (two paths): it makes the card then.
    if (!items.some((item) => item.kind === "tool" && item.id === event.call.id)) {
      return [...items, { ...toolItem(event.call.id, event.call.name, event.call.input), waiting: true, serverId: event.server_id, tool: event.tool }];
    }
    return items.map((item) =>
      item.kind === "tool" && item.id === event.call.id
        ? { ...item, waiting: true, serverId: event.server_id, tool: event.tool }
        : item,
    );
  }
  return applyAgent(items, event.event);
}

function applyAgent(items: Item[], event: AgentEvent): Item[] {
  switch (event.kind) {
    case "model": {
      if (event.event.kind !== "text_delta") return items;
      const text = event.event.text;
      const last = items[items.length - 1];
      if (last && last.kind === "text" && last.round === event.round) {
        return [...items.slice(0, -1), { ...last, text: last.text + text }];
      }
      return [...items, { kind: "text", round: event.round, text }];
    }
    case "tool_call": {
      const changedSinceAllowed = event.changed_since_allowed;
      if (items.some((item) => item.kind === "tool" && item.id === event.call.id)) {
        return items.map((item) =>
          item.kind === "tool" && item.id === event.call.id ? { ...item, changedSinceAllowed } : item,
        );
      }
      return [...items, { ...toolItem(event.call.id, event.call.name, event.call.input), changedSinceAllowed }];
    }
    case "tool_decision":
      return items.map((item) =>
        item.kind === "tool" && item.id === event.id ? { ...item, waiting: false, approval: event.approval } : item,
      );
    case "tool_result":
      return items.map((item) =>
        item.kind === "tool" && item.id === event.id
          ? {
              ...item,
              waiting: false,
              serverId: item.serverId ?? event.ran?.server_id ?? null,
              tool: item.tool ?? event.ran?.tool ?? null,
              result: { isError: event.is_error, text: event.content.map(blockText).join("\n"), findings: event.findings },
              historyId: event.ran?.history_id ?? null,
            }
          : item,
      );
    case "round_done":
      return items;
  }
}

/** A saved conversation's transcript (its messages, then each turn's statistics in order). */
export function itemsOf(conversation: Conversation): Item[] {
  const items: Item[] = [];
  let turn = 0;
  for (const message of conversation.messages) {
    const onlyResults = message.content.every((b) => b.type === "tool_result");
    if (message.role === "user" && !onlyResults) {
      if (turn > 0 && conversation.turns[turn - 1]) items.push({ kind: "stats", stats: conversation.turns[turn - 1]! });
      turn += 1;
      items.push({ kind: "user", text: message.content.map(blockText).join("\n"), attached: [] });
      continue;
    }
    for (const block of message.content) {
      if (block.type === "text") items.push({ kind: "text", round: 0, text: block.text });
      if (block.type === "tool_use") items.push(toolItem(block.id, block.name, block.input));
      if (block.type === "tool_result") {
        const result = { isError: block.is_error, text: block.content.map(blockText).join("\n"), findings: [] };
        const at = items.findIndex((i) => i.kind === "tool" && i.id === block.id);
        const found = items[at];
        if (found && found.kind === "tool") items[at] = { ...found, result };
      }
    }
  }
  if (turn > 0 && conversation.turns[turn - 1]) items.push({ kind: "stats", stats: conversation.turns[turn - 1]! });
  return items;
}

export async function newChat(key: string, serverIds: string[], providerId: string | null): Promise<void> {
  try {
    const conversation = await playgroundIpc.chatNew(serverIds, providerId);
    change(key, () => ({ ...fresh(), conversation }));
  } catch (e) {
    change(key, (c) => ({ ...c, error: errorMessage(e) }));
  }
}

export async function openChat(key: string, id: string): Promise<void> {
  try {
    const conversation = await playgroundIpc.chatLoad(id);
    change(key, () => ({ ...fresh(), conversation, items: itemsOf(conversation) }));
  } catch (e) {
    change(key, (c) => ({ ...c, error: errorMessage(e) }));
  }
}

export async function send(key: string, text: string, attachments: Attachment[] = []): Promise<void> {
  const chat = chats.getState()[key];
  const conversation = chat?.conversation;
  if (!conversation || chat.busy) return;
  change(key, (c) => ({ ...c, busy: true, error: null, exported: null, items: [...c.items, { kind: "user", text, attached: attachments.map(attachmentLabel) }] }));
  try {
    const stats = await playgroundIpc.chatSend(conversation.id, text, attachments, (event) =>
      change(key, (c) => ({ ...c, items: applyEvent(c.items, event) })),
    );
    const saved = await playgroundIpc.chatLoad(conversation.id).catch(() => null);
    change(key, (c) => ({
      ...c,
      busy: false,
      conversation: saved ?? c.conversation,
      items: [...c.items, { kind: "stats", stats }],
    }));
  } catch (e) {
    change(key, (c) => ({ ...c, busy: false, items: [...c.items, { kind: "error", message: errorMessage(e) }] }));
  }
}

export async function approve(key: string, callId: string, approval: Approval): Promise<void> {
  const id = chats.getState()[key]?.conversation?.id;
  if (!id) return;
  change(key, (c) => ({
    ...c,
    items: c.items.map((i) => (i.kind === "tool" && i.id === callId ? { ...i, waiting: false } : i)),
  }));
  try {
    await playgroundIpc.chatApprove(id, callId, approval);
  } catch (e) {
    change(key, (c) => ({ ...c, error: errorMessage(e) }));
  }
}

export async function stop(key: string): Promise<void> {
  const id = chats.getState()[key]?.conversation?.id;
  if (id) await playgroundIpc.chatCancel(id).catch(() => false);
}

export async function exportMarkdown(key: string): Promise<void> {
  const id = chats.getState()[key]?.conversation?.id;
  if (!id) return;
  try {
    const path = await playgroundIpc.chatExportMarkdown(id);
    change(key, (c) => ({ ...c, exported: path }));
  } catch (e) {
    change(key, (c) => ({ ...c, error: errorMessage(e) }));
  }
}

export async function save(key: string): Promise<void> {
  const id = chats.getState()[key]?.conversation?.id;
  if (!id) return;
  try {
    const path = await playgroundIpc.chatSave(id);
    change(key, (c) => ({ ...c, exported: path }));
  } catch (e) {
    change(key, (c) => ({ ...c, error: errorMessage(e) }));
  }
}
