// The add/edit server form's fields, to and from a catalog entry. Its messages are translated
// when they are made (i18n.t), its option tables hold keys translated at render.
import type { ParseKeys } from "i18next";
import type { DpopMode } from "../bindings/DpopMode";
import type { EraChoice } from "../bindings/EraChoice";
import type { HttpMode } from "../bindings/HttpMode";
import type { ServerEntry } from "../bindings/ServerEntry";
import type { ServerTarget } from "../bindings/ServerTarget";
import type { WorkloadTokenSource } from "../bindings/WorkloadTokenSource";
import i18n from "../i18n";

/** A key of the sidebar's strings (src/i18n/locales/en/sidebar.json). */
export type SidebarKey = ParseKeys<"sidebar">;

export type Transport = ServerTarget["transport"];

/** One environment variable (stdio) or header (HTTP) of the form. */
export interface PairRow {
  name: string;
  value: string;
  /** Kept in the OS keychain (or the owner-only file), never in the catalog. */
  secret: boolean;
  /** The user ticked or unticked `secret`: the guess from the name and value no longer applies. */
  secretChosen: boolean;
  /** A value is stored for this secret; left empty, `value` keeps it. */
  stored: boolean;
}

export type PairKind = "env" | "header";

export const emptyRow: PairRow = { name: "", value: "", secret: false, secretChosen: false, stored: false };

export interface ServerFormValues {
  name: string;
  transport: Transport;
  /** Which era of MCP to speak (auto: probe with server/discover). */
  era: EraChoice;
  // stdio
  command: string;
  /** One argument per line. */
  args: string;
  env: PairRow[];
  cwd: string;
  /** Pass Periscope's whole environment, not only PATH, HOME, the locale… */
  inheritEnv: boolean;
  // HTTP
  url: string;
  headers: PairRow[];
  mode: HttpMode;
  // Sign-in (OAuth); the client secret is not here: it goes to the secret store.
  clientId: string;
  clientMetadataUrl: string;
  /** DPoP-bound tokens (RFC 9449). */
  dpop: DpopMode;
  /** Workload identity (SEP-1933): where the workload's JWT is read; "none": a browser sign-in. */
  workloadSource: WorkloadSourceKind;
  /** The file's path or the variable's name. */
  workloadValue: string;
}

export type WorkloadSourceKind = "none" | WorkloadTokenSource["source"];

export const emptyForm: ServerFormValues = {
  name: "",
  transport: "stdio",
  era: "auto",
  command: "",
  args: "",
  env: [],
  cwd: "",
  inheritEnv: false,
  url: "",
  headers: [],
  mode: "auto",
  clientId: "",
  clientMetadataUrl: "",
  dpop: "auto",
  workloadSource: "none",
  workloadValue: "",
};

export const TRANSPORT_OPTIONS: ReadonlyArray<{ value: Transport; label: SidebarKey }> = [
  { value: "stdio", label: "options.transport.stdio" },
  { value: "http", label: "options.transport.http" },
];

export const MODE_OPTIONS: ReadonlyArray<{ value: HttpMode; label: SidebarKey }> = [
  { value: "auto", label: "options.mode.auto" },
  { value: "streamable", label: "options.mode.streamable" },
  { value: "legacy_sse", label: "options.mode.legacySse" },
];

export const ERA_OPTIONS: ReadonlyArray<{ value: EraChoice; label: SidebarKey }> = [
  { value: "auto", label: "options.era.auto" },
  { value: "modern", label: "options.era.modern" },
  { value: "legacy", label: "options.era.legacy" },
];

export const DPOP_OPTIONS: ReadonlyArray<{ value: DpopMode; label: SidebarKey }> = [
  { value: "auto", label: "options.dpop.auto" },
  { value: "required", label: "options.dpop.required" },
  { value: "off", label: "options.dpop.off" },
];

export const WORKLOAD_OPTIONS: ReadonlyArray<{ value: WorkloadSourceKind; label: SidebarKey }> = [
  { value: "none", label: "options.workload.none" },
  { value: "file", label: "options.workload.file" },
  { value: "env", label: "options.workload.env" },
];

export function isDpopMode(value: string): value is DpopMode {
  return DPOP_OPTIONS.some((o) => o.value === value);
}

export function isWorkloadSourceKind(value: string): value is WorkloadSourceKind {
  return WORKLOAD_OPTIONS.some((o) => o.value === value);
}

/** The form's workload identity fields from a catalog entry's source. */
function workloadFields(source: WorkloadTokenSource | null): Pick<ServerFormValues, "workloadSource" | "workloadValue"> {
  if (source === null) return { workloadSource: "none", workloadValue: "" };
  return source.source === "file"
    ? { workloadSource: "file", workloadValue: source.path }
    : { workloadSource: "env", workloadValue: source.name };
}

/** The catalog's workload identity source from the form, or why it cannot be one. */
function workloadSource(values: ServerFormValues): { source: WorkloadTokenSource | null; error: string | null } {
  const value = values.workloadValue.trim();
  switch (values.workloadSource) {
    case "none":
      return { source: null, error: null };
    case "file":
      return value === ""
        ? { source: null, error: i18n.t("sidebar:validation.workloadFile") }
        : { source: { source: "file", path: value }, error: null };
    case "env":
      if (value === "") return { source: null, error: i18n.t("sidebar:validation.workloadEnv") };
      return /[\s=]/.test(value)
        ? { source: null, error: i18n.t("sidebar:validation.workloadEnvName", { name: value }) }
        : { source: { source: "env", name: value }, error: null };
  }
}

export function isEraChoice(value: string): value is EraChoice {
  return ERA_OPTIONS.some((o) => o.value === value);
}

export function isHttpMode(value: string): value is HttpMode {
  return MODE_OPTIONS.some((o) => o.value === value);
}

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
      errors.push(i18n.t("sidebar:validation.envLine", { n: index + 1, line }));
      return;
    }
    if (/\s/.test(key)) {
      errors.push(i18n.t("sidebar:validation.envLineSpace", { n: index + 1, name: key }));
      return;
    }
    env.push([key, line.slice(eq + 1)]);
  });
  return { env, errors };
}

/** RFC 9110 token characters only (no spaces, no separators). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `Name: value` lines; the name is trimmed, the value is what follows the first `:`, trimmed. */
export function parseHeaders(text: string): { headers: Array<[string, string]>; errors: string[] } {
  const headers: Array<[string, string]> = [];
  const errors: string[] = [];
  lines(text).forEach((line, index) => {
    if (line.trim() === "") return;
    const colon = line.indexOf(":");
    const name = colon < 0 ? "" : line.slice(0, colon).trim();
    if (colon < 0 || name === "") {
      errors.push(i18n.t("sidebar:validation.headerLine", { n: index + 1, line }));
      return;
    }
    if (!HEADER_NAME.test(name)) {
      errors.push(i18n.t("sidebar:validation.headerLineName", { n: index + 1, name }));
      return;
    }
    headers.push([name, line.slice(colon + 1).trim()]);
  });
  return { headers, errors };
}

/** Header names are case-insensitive; environment names are not. */
function sameName(kind: PairKind, a: string, b: string): boolean {
  return kind === "header" ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/** The form's rows for an entry's pairs; those it marks secret come with an empty, stored value. */
export function rowsFromPairs(kind: PairKind, pairs: Array<[string, string]>, secretNames: string[]): PairRow[] {
  return pairs.map(([name, value]) => {
    const secret = secretNames.some((s) => sameName(kind, s, name));
    return { name, value: secret ? "" : value, secret, secretChosen: true, stored: secret };
  });
}

/**
 * A row after the user typed its name or value; a stored secret given another name is no longer
 * the stored one (its value must be typed). Whether it looks secret is the engine's guess, asked
 * after the edit (`withSecretGuesses`).
 */
export function editRow(row: PairRow, change: { name?: string; value?: string }): PairRow {
  const name = change.name ?? row.name;
  const value = change.value ?? row.value;
  const renamed = change.name !== undefined && change.name !== row.name;
  return { ...row, name, value, stored: row.stored && !renamed };
}

/** Whether a row's secret flag follows the engine's guess: the user has not ticked or unticked it. */
const followsGuess = (row: PairRow) => !row.secretChosen && (row.name !== "" || row.value !== "");

/** The (name, value) of each row whose secret flag follows the engine's guess, to ask it about. */
export function guessedPairs(rows: PairRow[]): Array<[string, string]> {
  return rows.filter(followsGuess).map((row) => [row.name, row.value]);
}

/**
 * The rows with the engine's guesses (one per pair of `guessedPairs`, in order) applied; the
 * same array when no flag changes, so a caller can tell nothing happened.
 */
export function withSecretGuesses(rows: PairRow[], guesses: boolean[]): PairRow[] {
  let at = 0;
  let changed = false;
  const next = rows.map((row) => {
    if (!followsGuess(row)) return row;
    const secret = guesses[at] ?? row.secret;
    at += 1;
    if (secret === row.secret) return row;
    changed = true;
    return { ...row, secret };
  });
  return changed ? next : rows;
}

/** Rows from pasted `KEY=VALUE` or `Name: value` lines (the engine guesses which are secret). */
export function rowsFromText(kind: PairKind, text: string): { rows: PairRow[]; errors: string[] } {
  const toRow = ([name, value]: [string, string]) => editRow(emptyRow, { name, value });
  if (kind === "env") {
    const { env, errors } = parseEnv(text);
    return { rows: env.map(toRow), errors };
  }
  const { headers, errors } = parseHeaders(text);
  return { rows: headers.map(toRow), errors };
}

/** The pairs the rows describe, the names kept secret, or what is wrong. Blank rows are skipped. */
export function pairsFromRows(
  kind: PairKind,
  rows: PairRow[],
): { pairs: Array<[string, string]>; secret: string[]; errors: string[] } {
  const pairs: Array<[string, string]> = [];
  const secret: string[] = [];
  const errors: string[] = [];
  rows.forEach((row, index) => {
    const name = row.name.trim();
    if (name === "" && row.value === "" && !row.stored) return;
    if (name === "") {
      errors.push(
        kind === "env"
          ? i18n.t("sidebar:validation.envNoName", { n: index + 1 })
          : i18n.t("sidebar:validation.headerNoName", { n: index + 1 }),
      );
      return;
    }
    if (kind === "env" && (/\s/.test(name) || name.includes("="))) {
      errors.push(i18n.t("sidebar:validation.envName", { n: index + 1, name }));
      return;
    }
    if (kind === "header" && !HEADER_NAME.test(name)) {
      errors.push(i18n.t("sidebar:validation.headerName", { n: index + 1, name }));
      return;
    }
    if (row.secret && row.value === "" && !row.stored) {
      errors.push(i18n.t("sidebar:validation.secretValue", { name }));
      return;
    }
    const value = kind === "header" ? row.value.trim() : row.value;
    pairs.push([name, value]);
    if (row.secret && !secret.some((s) => sameName(kind, s, name))) secret.push(name);
  });
  return { pairs, secret, errors };
}

/** An http(s) URL, or why it is not one. */
function checkUrl(url: string): string | null {
  if (url === "") return i18n.t("sidebar:validation.url");
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return i18n.t("sidebar:validation.urlInvalid", { url });
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return i18n.t("sidebar:validation.urlScheme", { scheme: parsed.protocol });
  }
  return null;
}

export function formFromEntry(entry: ServerEntry): ServerFormValues {
  const target = entry.target;
  if (target.transport === "http") {
    return {
      ...emptyForm,
      name: entry.name,
      era: entry.era,
      transport: "http",
      url: target.url,
      headers: rowsFromPairs("header", target.headers, target.secret_headers),
      mode: target.mode,
      clientId: target.oauth.client_id ?? "",
      clientMetadataUrl: target.oauth.client_metadata_url ?? "",
      dpop: target.oauth.dpop,
      ...workloadFields(target.oauth.workload_identity),
    };
  }
  return {
    ...emptyForm,
    name: entry.name,
    era: entry.era,
    transport: "stdio",
    command: target.command,
    args: target.args.join("\n"),
    env: rowsFromPairs("env", target.env, target.secret_env),
    cwd: target.cwd ?? "",
    inheritEnv: target.inherit_env ?? false,
  };
}

/** The entry the form describes, or the reasons it cannot be saved. */
export function entryFromForm(
  values: ServerFormValues,
  id: string,
): { entry: ServerEntry; errors: [] } | { entry: null; errors: string[] } {
  const errors: string[] = [];
  const name = values.name.trim();
  if (name === "") errors.push(i18n.t("sidebar:validation.name"));
  let target: ServerTarget;
  if (values.transport === "http") {
    const url = values.url.trim();
    const urlError = checkUrl(url);
    if (urlError) errors.push(urlError);
    const { pairs: headers, secret: secretHeaders, errors: headerErrors } = pairsFromRows("header", values.headers);
    errors.push(...headerErrors);
    const clientId = values.clientId.trim();
    const clientMetadataUrl = values.clientMetadataUrl.trim();
    if (clientMetadataUrl !== "" && !clientMetadataUrl.startsWith("https://")) {
      errors.push(i18n.t("sidebar:validation.clientMetadataUrl"));
    }
    const workload = workloadSource(values);
    if (workload.error) errors.push(workload.error);
    target = {
      transport: "http",
      url,
      headers,
      secret_headers: secretHeaders,
      mode: values.mode,
      oauth: {
        client_id: clientId === "" ? null : clientId,
        client_metadata_url: clientMetadataUrl === "" ? null : clientMetadataUrl,
        dpop: values.dpop,
        workload_identity: workload.source,
      },
    };
  } else {
    const command = values.command.trim();
    if (command === "") errors.push(i18n.t("sidebar:validation.command"));
    const { pairs: env, secret: secretEnv, errors: envErrors } = pairsFromRows("env", values.env);
    errors.push(...envErrors);
    const cwd = values.cwd.trim();
    target = {
      transport: "stdio",
      command,
      args: parseArgs(values.args),
      env,
      cwd: cwd === "" ? null : cwd,
      secret_env: secretEnv,
      // Written only when on, as the catalog file writes it.
      ...(values.inheritEnv ? { inherit_env: true } : {}),
    };
  }
  if (errors.length > 0) return { entry: null, errors };
  return { entry: { id, name, target, era: values.era }, errors: [] };
}
