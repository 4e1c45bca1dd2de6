import { describe, expect, it } from "vitest";
import { parseDraft } from "./SamplingDraft";

describe("a model's draft in the sampling reply", () => {
  it("fills the text, the model and the stop reason from a text answer", () => {
    expect(
      parseDraft({ role: "assistant", content: { type: "text", text: "Hi." }, model: "fake-1", stopReason: "endTurn" }),
    ).toEqual({ text: "Hi.", model: "fake-1", stopReason: "endTurn", tool: null });
  });

  it("fills the tool form from a tool use (tool use inside sampling)", () => {
    const draft = parseDraft({
      role: "assistant",
      content: [
        { type: "text", text: "Checking the weather." },
        { type: "tool_use", id: "t1", name: "get_weather", input: { city: "Paris" } },
      ],
      model: "fake-1",
      stopReason: "toolUse",
    });
    expect(draft.tool).toEqual({ name: "get_weather", input: { city: "Paris" } });
    expect(draft.stopReason).toBe("toolUse");
  });

  it("reads nothing from a result that is not an object", () => {
    expect(parseDraft("nonsense")).toEqual({ text: "", model: null, stopReason: null, tool: null });
  });
});
