import { describe, expect, it } from "vitest";
import type { ChatEvent } from "../bindings/ChatEvent";
import type { Conversation } from "../bindings/Conversation";
import type { Finding } from "../bindings/Finding";
import { matchingPrompts } from "./Composer";
import { promptInfo } from "../prompts/prompts";
import { promptView } from "../testing/views";
import { applyEvent, itemsOf, type Item } from "./state";

const call = { id: "c1", name: "add", input: { a: 2, b: 3 } };
const finding: Finding = {
  rule: "model-tag",
  severity: "error",
  server: "demo",
  subject: "tool_result",
  name: "add",
  field: "content[0].text",
  span: { start: 0, end: 11 },
  excerpt: "<IMPORTANT>",
  message: "the content[0].text holds markup that speaks to the model",
};
const approveEvent: ChatEvent = { kind: "approve", call, server_id: "demo", tool: "add" };
const toolCall: ChatEvent = { kind: "agent", event: { kind: "tool_call", call, changed_since_allowed: false } };
const text = (round: number, t: string): ChatEvent => ({
  kind: "agent",
  event: { kind: "model", round, event: { kind: "text_delta", text: t } },
});

describe("the playground transcript", () => {
  it("joins a round's pieces of text and keeps rounds apart", () => {
    let items: Item[] = [];
    for (const e of [text(1, "Let "), text(1, "me."), text(2, "The sum is 5.")]) items = applyEvent(items, e);
    expect(items).toEqual([
      { kind: "text", round: 1, text: "Let me." },
      { kind: "text", round: 2, text: "The sum is 5." },
    ]);
  });

  it("shows one waiting card whichever of the call and its approval ask arrives first", () => {
    for (const order of [
      [toolCall, approveEvent],
      [approveEvent, toolCall],
    ]) {
      let items: Item[] = [];
      for (const e of order) items = applyEvent(items, e);
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({ kind: "tool", id: "c1", waiting: true, serverId: "demo", input: { a: 2, b: 3 } });
    }
    let items = applyEvent(applyEvent([], toolCall), approveEvent);
    items = applyEvent(items, { kind: "agent", event: { kind: "tool_decision", id: "c1", approval: "once" } });
    items = applyEvent(items, {
      kind: "agent",
      event: { kind: "tool_result", id: "c1", is_error: false, content: [{ type: "text", text: "5" }], ran: null, findings: [finding] },
    });
    expect(items[0]).toMatchObject({ waiting: false, approval: "once", result: { isError: false, text: "5", findings: [finding] }, historyId: null });
    // A call that reached the server carries its History entry's id.
    const ran = { server_id: "demo", tool: "add", arguments: { a: 2, b: 3 }, timing: { started_wall_us: 1, duration_us: 2, response_seq: 9 }, history_id: "h-1" };
    const withRan = applyEvent(applyEvent([], toolCall), {
      kind: "agent",
      event: { kind: "tool_result", id: "c1", is_error: false, content: [{ type: "text", text: "5" }], ran, findings: [] },
    });
    expect(withRan[0]).toMatchObject({ serverId: "demo", historyId: "h-1" });
  });

  it("marks a call asked again because its tool changed since it was allowed, in either order", () => {
    const changed: ChatEvent = { kind: "agent", event: { kind: "tool_call", call, changed_since_allowed: true } };
    for (const order of [
      [changed, approveEvent],
      [approveEvent, changed],
    ]) {
      let items: Item[] = [];
      for (const e of order) items = applyEvent(items, e);
      expect(items[0]).toMatchObject({ waiting: true, changedSinceAllowed: true });
    }
    expect(applyEvent([], toolCall)[0]).toMatchObject({ changedSinceAllowed: false });
  });

  it("reads a saved conversation back as the same transcript, with each turn's statistics", () => {
    const stats = {
      usage: { input: 100, output: 20 },
      timing: { first_token_us: 1000, total_us: 5000 },
      rounds: 2,
      model: "fake-1",
      stop: "end_turn",
      tool_calls: [],
      hit_round_limit: false,
    } as unknown as Conversation["turns"][number];
    const conversation = {
      id: "chat-1",
      title: "add",
      server_ids: ["demo"],
      provider_id: "p",
      system: null,
      messages: [
        { role: "user", content: [{ type: "text", text: "add 2 and 3" }] },
        { role: "assistant", content: [{ type: "tool_use", id: "c1", name: "add", input: { a: 2, b: 3 } }] },
        { role: "user", content: [{ type: "tool_result", id: "c1", content: [{ type: "text", text: "5" }], is_error: false }] },
        { role: "assistant", content: [{ type: "text", text: "The sum is 5." }] },
      ],
      turns: [stats],
      model_context: null,
      always_allowed: [],
      allowed_as: {},
    } as Conversation;
    const items = itemsOf(conversation);
    expect(items.map((i) => i.kind)).toEqual(["user", "tool", "text", "stats"]);
    expect(items[1]).toMatchObject({ result: { text: "5" } });
  });
});

describe("prompts in the composer", () => {
  const prompts = [
    promptInfo(promptView({ name: "review", arguments: [{ name: "code", title: null, description: null, required: true }] })),
    promptInfo(promptView({ name: "greet" })),
  ].filter((p) => p !== null);

  it("offers the prompts whose names start with what follows the slash", () => {
    expect(matchingPrompts("/re", prompts).map((p) => p.name)).toEqual(["review"]);
    expect(matchingPrompts("/", prompts)).toHaveLength(2);
    expect(matchingPrompts("re", prompts)).toEqual([]);
    expect(matchingPrompts("/review now", prompts)).toEqual([]);
    expect(prompts[0]?.arguments).toEqual([{ name: "code", required: true, description: null }]);
  });
});
