// For tests: results and sampling requests as the engine reads them. Each fixture holds the JSON
// a server sends and the view the engine gives for it, kept true by a Rust test
// (vocabulary/views/ui_fixtures.rs), so a UI test renders exactly what the app would.
import type { PromptResultView } from "../bindings/PromptResultView";
import type { ReadResultView } from "../bindings/ReadResultView";
import type { SamplingView } from "../bindings/SamplingView";
import type { ToolResultView } from "../bindings/ToolResultView";
import fixtures from "./fixtures/results.json";

interface Views {
  tool_result: ToolResultView;
  prompt_result: PromptResultView;
  read_result: ReadResultView;
  sampling: SamplingView;
}

type Name = keyof typeof fixtures;

function viewOf<K extends keyof Views>(reads: K, name: Name): Views[K] {
  const fixture = fixtures[name];
  if (fixture.reads !== reads) throw new Error(`fixture ${name} is read as ${fixture.reads}, not ${reads}`);
  return fixture.view as unknown as Views[K];
}

export const toolResult = (name: Name & `tool/${string}`) => viewOf("tool_result", name);
export const promptResult = (name: Name & `prompt/${string}`) => viewOf("prompt_result", name);
export const readResult = (name: Name & `read/${string}`) => viewOf("read_result", name);
export const samplingRequest = (name: Name & `sampling/${string}`) => viewOf("sampling", name);
