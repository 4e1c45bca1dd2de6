// The import dialog's logic, apart from React: what a preview row shows (never a value), which
// typed values an entry still needs, and the entry with them filled in.
import type { Dialect } from "../bindings/Dialect";
import type { ImportedEntry } from "../bindings/ImportedEntry";
import type { NeededValue } from "../bindings/NeededValue";
import type { ServerEntry } from "../bindings/ServerEntry";
import i18n from "../i18n";

/** One env variable or header of a preview row: its name and whether it goes to the keychain. */
export interface PairView {
  name: string;
  secret: boolean;
  /** Nothing to import: the value is to be typed (or left empty). */
  empty: boolean;
}

/** The command line or URL, and the names of its env variables or headers. */
export function describe(entry: ServerEntry): { kind: string; line: string; pairs: PairView[] } {
  const target = entry.target;
  if (target.transport === "stdio") {
    return {
      kind: "stdio",
      line: [target.command, ...target.args].join(" "),
      pairs: target.env.map(([name, value]) => ({
        name,
        secret: target.secret_env.includes(name),
        empty: value === "",
      })),
    };
  }
  const secret = target.secret_headers.map((h) => h.toLowerCase());
  return {
    kind: target.mode === "legacy_sse" ? "http (SSE)" : "http",
    line: target.url,
    pairs: target.headers.map(([name, value]) => ({
      name,
      secret: secret.includes(name.toLowerCase()),
      empty: value === "",
    })),
  };
}

/** A key for a needed value within its entry. */
export function needKey(need: NeededValue): string {
  return "name" in need.place ? `${need.place.kind}:${need.place.name}` : need.place.kind;
}

/** The needed values the user types here: whole env or header values left empty. */
export function typedNeeds(imported: ImportedEntry): NeededValue[] {
  return imported.needs.filter((need) => {
    const place = need.place;
    if (place.kind !== "env" && place.kind !== "header") return false;
    return pairsOf(imported.entry).some(([name, value]) => name === place.name && value === "");
  });
}

function pairsOf(entry: ServerEntry): Array<[string, string]> {
  return entry.target.transport === "stdio" ? entry.target.env : entry.target.headers;
}

/** Whether the entry can be saved with these typed values: every empty secret is typed. */
export function missingSecrets(imported: ImportedEntry, typed: Record<string, string>): string[] {
  const { pairs } = describe(imported.entry);
  return pairs
    .filter((p) => p.secret)
    .filter((p) => pairsOf(imported.entry).some(([n, v]) => n === p.name && v === ""))
    .filter((p) => {
      const need = typedNeeds(imported).find((n) => "name" in n.place && n.place.name === p.name);
      return !need || (typed[needKey(need)] ?? "") === "";
    })
    .map((p) => p.name);
}

/** The entry with the typed values filled in. */
export function withTyped(imported: ImportedEntry, typed: Record<string, string>): ServerEntry {
  const fill = (pairs: Array<[string, string]>, kind: "env" | "header"): Array<[string, string]> =>
    pairs.map(([name, value]) => [name, value === "" ? (typed[`${kind}:${name}`] ?? "") : value]);
  const entry = imported.entry;
  if (entry.target.transport === "stdio") {
    return { ...entry, target: { ...entry.target, env: fill(entry.target.env, "env") } };
  }
  return { ...entry, target: { ...entry.target, headers: fill(entry.target.headers, "header") } };
}

/** The hosts' product names: the same in every language. */
const PRODUCT: Partial<Record<Dialect, string>> = {
  "claude-desktop": "Claude Desktop",
  "claude-code": "Claude Code",
  cursor: "Cursor",
  windsurf: "Windsurf",
  cline: "Cline",
  vscode: "VS Code",
  zed: "Zed",
};

/** The host a dialect belongs to, for people. */
export function hostLabel(dialect: Dialect): string {
  if (dialect === "registry") return i18n.t("sidebar:import.dialect.registry");
  if (dialect === "command-line") return i18n.t("sidebar:import.dialect.commandLine");
  return PRODUCT[dialect] ?? dialect;
}

/**
 * The hosts whose config files are looked for on this computer (the engine's
 * host_config/locations.rs), as a list in the UI's language: "Claude Desktop, …, and Zed".
 */
export function hostsLookedFor(): string {
  const names = [...new Set(Object.values(PRODUCT))];
  return new Intl.ListFormat(i18n.language, { type: "conjunction" }).format(names);
}
