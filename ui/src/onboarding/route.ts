// Where the welcome view's "Continue" takes what the user pasted: a URL to the server form
// (filled in with it), a config or a command line to the import preview. Pure: nothing here
// connects, runs or imports; the form and the preview wait for the user's confirmation.

export type PasteRoute =
  | { kind: "empty" }
  /** An http(s) URL: a remote server, added with the server form. */
  | { kind: "url"; url: string; name: string }
  /** A host's config (JSON): its servers, previewed by the import dialog. */
  | { kind: "config"; text: string }
  /** Anything else is read as the command line that starts a local server (the import dialog). */
  | { kind: "command"; text: string };

/** The examples the welcome view offers, one of each kind. */
export const EXAMPLES: ReadonlyArray<{ kind: "command" | "url" | "config"; text: string }> = [
  { kind: "command", text: "npx -y @modelcontextprotocol/server-everything" },
  { kind: "url", text: "https://example.com/mcp" },
  {
    kind: "config",
    text: JSON.stringify(
      { mcpServers: { everything: { command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"] } } },
      null,
      2,
    ),
  },
];

/** The pasted text as an http(s) URL, if it is one and nothing else. */
function asUrl(text: string): URL | null {
  if (/\s/.test(text) || !/^https?:\/\//i.test(text)) return null;
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}

export function routePaste(pasted: string): PasteRoute {
  const text = pasted.trim();
  if (text === "") return { kind: "empty" };
  const url = asUrl(text);
  if (url) return { kind: "url", url: text, name: url.hostname };
  // A config is a JSON object (a host's file or its mcpServers part); the import dialog says
  // what it makes of it, or why it cannot read it.
  if (text.startsWith("{") || text.startsWith("[")) return { kind: "config", text };
  return { kind: "command", text };
}
