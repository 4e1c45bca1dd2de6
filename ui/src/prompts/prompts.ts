// The prompts the engine read from `prompts/list` (`PromptView`), and getting one.
import type { PromptView } from "../bindings/PromptView";

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

/** A prompt the engine read, when it has a name (one without cannot be got). */
export function promptInfo(view: PromptView): PromptInfo | null {
  if (view.name === null) return null;
  return {
    name: view.name,
    title: view.title,
    description: view.description,
    arguments: view.arguments.map((a) => ({ name: a.name, description: a.description, required: a.required })),
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
