// For tests: results, sampling requests and server identities as the engine reads them. Each fixture holds the JSON
// a server sends and the view the engine gives for it, kept true by a Rust test
// (vocabulary/views/ui_fixtures.rs), so a UI test renders exactly what the app would.
import type { PromptResultView } from "../bindings/PromptResultView";
import type { ReadResultView } from "../bindings/ReadResultView";
import type { CapabilitiesView } from "../bindings/CapabilitiesView";
import type { SamplingView } from "../bindings/SamplingView";
import type { ServerInfoView } from "../bindings/ServerInfoView";
import type { ToolResultView } from "../bindings/ToolResultView";
import fixtures from "./fixtures/results.json";

interface Views {
  tool_result: ToolResultView;
  prompt_result: PromptResultView;
  read_result: ReadResultView;
  sampling: SamplingView;
  server_info: ServerInfoView;
  capabilities: CapabilitiesView;
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
export const serverInfo = (name: Name & `server_info/${string}`) => viewOf("server_info", name);
export const capabilities = (name: Name & `capabilities/${string}`) => viewOf("capabilities", name);

/** The raw JSON of a fixture, as the server sent it. */
export const rawOf = (name: Name) => fixtures[name].raw;
