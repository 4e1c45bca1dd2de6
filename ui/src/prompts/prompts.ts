// Reading `prompts/list` items.
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { getArray, getString, isObject } from "../json";

export interface PromptArgument {
  name: string;
  description: string | null;
  required: boolean;
}

export interface PromptInfo {
  name: string;
  title: string | null;
  description: string | null;
  arguments: PromptArgument[];
}

export function promptInfo(raw: JsonValue): PromptInfo | null {
  if (!isObject(raw)) return null;
  const name = getString(raw, "name");
  if (name === undefined) return null;
  return {
    name,
    title: getString(raw, "title") ?? null,
    description: getString(raw, "description") ?? null,
    arguments: getArray(raw, "arguments").flatMap((a) => {
      if (!isObject(a)) return [];
      const argName = getString(a, "name");
      if (argName === undefined) return [];
      return [{ name: argName, description: getString(a, "description") ?? null, required: a["required"] === true }];
    }),
  };
}

/** The arguments to send: empty optional ones are left out; the missing required ones named. */
export function promptArguments(
  prompt: PromptInfo,
  values: Record<string, string> | undefined,
): { args: Record<string, string>; missing: string[] } {
  const args: Record<string, string> = {};
  const missing: string[] = [];
  for (const arg of prompt.arguments) {
    const value = values?.[arg.name] ?? "";
    if (value !== "") args[arg.name] = value;
    else if (arg.required) missing.push(arg.name);
  }
  return { args, missing };
}

// When each prompt get was sent (by server and prompt), for the elapsed time while it runs.
const getsStarted = new Map<string, number>();
const startKey = (serverId: string, prompt: string) => `${serverId}\u0000${prompt}`;

export function markGetStarted(serverId: string, prompt: string, now = Date.now()): void {
  getsStarted.set(startKey(serverId, prompt), now);
}

export function getStartedAt(serverId: string, prompt: string): number | undefined {
  return getsStarted.get(startKey(serverId, prompt));
}
