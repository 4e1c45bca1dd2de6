// The add/edit server form's text fields, to and from a catalog entry.
import type { HttpMode } from "../bindings/HttpMode";
import type { ServerEntry } from "../bindings/ServerEntry";
import type { ServerTarget } from "../bindings/ServerTarget";

export type Transport = ServerTarget["transport"];

export interface ServerFormValues {
  name: string;
  transport: Transport;
  // stdio
  command: string;
  /** One argument per line. */
  args: string;
  /** KEY=VALUE, one per line. */
  env: string;
  cwd: string;
  /** Pass Periscope's whole environment, not only PATH, HOME, the locale… */
  inheritEnv: boolean;
  // HTTP
  url: string;
  /** `Name: value`, one per line. */
  headers: string;
  mode: HttpMode;
  // Sign-in (OAuth); the client secret is not here: it goes to the secret store.
  clientId: string;
  clientMetadataUrl: string;
}

export const emptyForm: ServerFormValues = {
  name: "",
  transport: "stdio",
  command: "",
  args: "",
  env: "",
  cwd: "",
  inheritEnv: false,
  url: "",
  headers: "",
  mode: "auto",
  clientId: "",
  clientMetadataUrl: "",
};

export const TRANSPORT_OPTIONS: ReadonlyArray<{ value: Transport; label: string }> = [
  { value: "stdio", label: "Local command (stdio)" },
  { value: "http", label: "Remote URL (HTTP)" },
];

export const MODE_OPTIONS: ReadonlyArray<{ value: HttpMode; label: string }> = [
  { value: "auto", label: "Automatic (Streamable HTTP, else legacy SSE)" },
  { value: "streamable", label: "Streamable HTTP" },
  { value: "legacy_sse", label: "Legacy HTTP+SSE" },
];

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

/** `Name: value` lines; the name is trimmed, the value is what follows the first `:`, trimmed. */
export function parseHeaders(text: string): { headers: Array<[string, string]>; errors: string[] } {
  const headers: Array<[string, string]> = [];
  const errors: string[] = [];
  lines(text).forEach((line, index) => {
    if (line.trim() === "") return;
    const colon = line.indexOf(":");
    const name = colon < 0 ? "" : line.slice(0, colon).trim();
    if (colon < 0 || name === "") {
      errors.push(`Header line ${index + 1} is not "Name: value": "${line}"`);
      return;
    }
    // RFC 9110 token characters only (no spaces, no separators).
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      errors.push(`Header line ${index + 1}: "${name}" is not a valid header name`);
      return;
    }
    headers.push([name, line.slice(colon + 1).trim()]);
  });
  return { headers, errors };
}

/** An http(s) URL, or why it is not one. */
function checkUrl(url: string): string | null {
  if (url === "") return "Give the server's URL.";
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${url}" is not a valid URL.`;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return `The URL must start with http:// or https:// (not ${parsed.protocol}).`;
  }
  return null;
}

export function formFromEntry(entry: ServerEntry): ServerFormValues {
  const target = entry.target;
  if (target.transport === "http") {
    return {
      ...emptyForm,
      name: entry.name,
      transport: "http",
      url: target.url,
      headers: target.headers.map(([k, v]) => `${k}: ${v}`).join("\n"),
      mode: target.mode,
      clientId: target.oauth.client_id ?? "",
      clientMetadataUrl: target.oauth.client_metadata_url ?? "",
    };
  }
  return {
    ...emptyForm,
    name: entry.name,
    transport: "stdio",
    command: target.command,
    args: target.args.join("\n"),
    env: target.env.map(([k, v]) => `${k}=${v}`).join("\n"),
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
  if (name === "") errors.push("Give the server a name.");
  let target: ServerTarget;
  if (values.transport === "http") {
    const url = values.url.trim();
    const urlError = checkUrl(url);
    if (urlError) errors.push(urlError);
    const { headers, errors: headerErrors } = parseHeaders(values.headers);
    errors.push(...headerErrors);
    const clientId = values.clientId.trim();
    const clientMetadataUrl = values.clientMetadataUrl.trim();
    if (clientMetadataUrl !== "" && !clientMetadataUrl.startsWith("https://")) {
      errors.push("A client ID metadata document URL must be an https:// URL.");
    }
    target = {
      transport: "http",
      url,
      headers,
      mode: values.mode,
      oauth: {
        client_id: clientId === "" ? null : clientId,
        client_metadata_url: clientMetadataUrl === "" ? null : clientMetadataUrl,
      },
    };
  } else {
    const command = values.command.trim();
    if (command === "") errors.push("Give the command that starts the server.");
    const { env, errors: envErrors } = parseEnv(values.env);
    errors.push(...envErrors);
    const cwd = values.cwd.trim();
    target = {
      transport: "stdio",
      command,
      args: parseArgs(values.args),
      env,
      cwd: cwd === "" ? null : cwd,
      // Written only when on, as the catalog file writes it.
      ...(values.inheritEnv ? { inherit_env: true } : {}),
    };
  }
  if (errors.length > 0) return { entry: null, errors };
  return { entry: { id, name, target }, errors: [] };
}
