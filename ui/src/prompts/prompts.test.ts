import { describe, expect, it } from "vitest";
import { promptView } from "../testing/views";
import { promptArguments, promptInfo } from "./prompts";

describe("prompts", () => {
  // The engine leaves an argument without a name out (and says so in the view's problems).
  const prompt = promptInfo(
    promptView({
      name: "greet",
      arguments: [
        { name: "name", title: null, required: true, description: "Who to greet" },
        { name: "style", title: null, required: false, description: null },
      ],
    }),
  )!;

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
