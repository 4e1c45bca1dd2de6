// The add/edit server form's text fields, to and from a catalog entry.
import type { ServerEntry } from "../bindings/ServerEntry";

export interface ServerFormValues {
  name: string;
  command: string;
  /** One argument per line. */
  args: string;
  /** KEY=VALUE, one per line. */
  env: string;
  cwd: string;
}

export const emptyForm: ServerFormValues = { name: "", command: "", args: "", env: "", cwd: "" };

const lines = (text: string) => text.split(/\r?\n/);

/** One argument per line; blank lines are ignored, everything else is kept exactly. */
export function parseArgs(text: string): string[] {
  return lines(text).filter((line) => line.trim() !== "");
}

/** KEY=VALUE lines; the value is everything after the first `=` and may be empty. */
export function parseEnv(text: string): { env: Array<[string, string]>; errors: string[] } {
  const env: Array<[string, string]> = [];
  const errors: string[] = [];
  lines(text).forEach((line, index) => {
    if (line.trim() === "") return;
    const eq = line.indexOf("=");
    const key = eq < 0 ? "" : line.slice(0, eq).trim();
    if (eq < 0 || key === "") {
      errors.push(`Environment line ${index + 1} is not KEY=VALUE: "${line}"`);
      return;
    }
    if (/\s/.test(key)) {
      errors.push(`Environment line ${index + 1}: the name "${key}" contains a space`);
      return;
    }
    env.push([key, line.slice(eq + 1)]);
  });
  return { env, errors };
}

export function formFromEntry(entry: ServerEntry): ServerFormValues {
  return {
    name: entry.name,
    command: entry.target.command,
    args: entry.target.args.join("\n"),
    env: entry.target.env.map(([k, v]) => `${k}=${v}`).join("\n"),
    cwd: entry.target.cwd ?? "",
  };
}

/** The entry the form describes, or the reasons it cannot be saved. */
export function entryFromForm(
  values: ServerFormValues,
  id: string,
): { entry: ServerEntry; errors: [] } | { entry: null; errors: string[] } {
  const errors: string[] = [];
  const name = values.name.trim();
  const command = values.command.trim();
  if (name === "") errors.push("Give the server a name.");
  if (command === "") errors.push("Give the command that starts the server.");
  const { env, errors: envErrors } = parseEnv(values.env);
  errors.push(...envErrors);
  if (errors.length > 0) return { entry: null, errors };
  const cwd = values.cwd.trim();
  return {
    entry: {
      id,
      name,
      target: { command, args: parseArgs(values.args), env, cwd: cwd === "" ? null : cwd },
    },
    errors: [],
  };
}
