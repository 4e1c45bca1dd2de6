import { describe, expect, it } from "vitest";
import { promptArguments, promptInfo } from "./prompts";

describe("prompts", () => {
  const prompt = promptInfo({
    name: "greet",
    arguments: [
      { name: "name", required: true, description: "Who to greet" },
      { name: "style", required: false },
      { description: "no name: skipped" },
    ],
  })!;

  it("reads the arguments and which are required", () => {
    expect(prompt.arguments).toEqual([
      { name: "name", description: "Who to greet", required: true },
      { name: "style", description: null, required: false },
    ]);
  });

  it("leaves empty optional arguments out and names missing required ones", () => {
    expect(promptArguments(prompt, { style: "" })).toEqual({ args: {}, missing: ["name"] });
    expect(promptArguments(prompt, { name: "Ada", style: "warm" })).toEqual({
      args: { name: "Ada", style: "warm" },
      missing: [],
    });
  });
});
