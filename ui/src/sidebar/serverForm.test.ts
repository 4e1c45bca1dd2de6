import { describe, expect, it } from "vitest";
import { duplicateName } from "../actions/catalog";
import {
  editRow,
  emptyForm,
  emptyRow,
  entryFromForm,
  formFromEntry,
  guessedPairs,
  pairsFromRows,
  parseArgs,
  parseEnv,
  parseHeaders,
  rowsFromText,
  withSecretGuesses,
  type PairRow,
} from "./serverForm";

const row = (name: string, value: string, more: Partial<PairRow> = {}): PairRow => ({ ...emptyRow, name, value, ...more });

describe("server form", () => {
  it("reads one argument per line, keeping spaces inside arguments", () => {
    expect(parseArgs("-y\r\n@modelcontextprotocol/server-everything\n\n  two words \n")).toEqual([
      "-y",
      "@modelcontextprotocol/server-everything",
      "  two words ",
    ]);
  });

  it("reads KEY=VALUE lines; the value may contain = or be empty", () => {
    expect(parseEnv("API_KEY=a=b\nEMPTY=\n\n")).toEqual({
      env: [
        ["API_KEY", "a=b"],
        ["EMPTY", ""],
      ],
      errors: [],
    });
    expect(parseEnv("NOPE\n=x").errors).toEqual([
      'Environment line 1 is not KEY=VALUE: "NOPE"',
      'Environment line 2 is not KEY=VALUE: "=x"',
    ]);
  });

  it("builds an entry, or says what is missing", () => {
    expect(entryFromForm({ ...emptyForm, name: " " }, "id").errors).toEqual([
      "Give the server a name.",
      "Give the command that starts the server.",
    ]);
    const { entry } = entryFromForm(
      { ...emptyForm, name: "Demo", command: "periscope-demo-server", args: "--flag", env: [row("A", "1")], cwd: " /tmp " },
      "id-1",
    );
    expect(entry).toEqual({
      id: "id-1",
      name: "Demo",
      era: "auto",
      target: {
        transport: "stdio",
        command: "periscope-demo-server",
        args: ["--flag"],
        env: [["A", "1"]],
        cwd: "/tmp",
        secret_env: [],
      },
    });
    expect(formFromEntry(entry!)).toEqual({
      ...emptyForm,
      name: "Demo",
      transport: "stdio",
      command: "periscope-demo-server",
      args: "--flag",
      env: [row("A", "1", { secretChosen: true })],
      cwd: "/tmp",
    });
  });

  it("passes the whole environment only when asked, and writes the choice only then", () => {
    const base = { ...emptyForm, name: "S", command: "srv" };
    const off = entryFromForm(base, "a").entry!;
    expect(off.target).not.toHaveProperty("inherit_env");
    const on = entryFromForm({ ...base, inheritEnv: true }, "b").entry!;
    expect(on.target).toMatchObject({ transport: "stdio", inherit_env: true });
    expect(formFromEntry(on).inheritEnv).toBe(true);
    expect(formFromEntry(off).inheritEnv).toBe(false);
  });

  it("names duplicates so they can be told apart", () => {
    expect(duplicateName("Demo", ["Demo"])).toBe("Demo (copy)");
    expect(duplicateName("Demo", ["Demo", "Demo (copy)"])).toBe("Demo (copy 2)");
    expect(duplicateName("Demo (copy)", ["Demo", "Demo (copy)"])).toBe("Demo (copy 2)");
  });
});

describe("server form: HTTP", () => {
  it("reads Name: value lines; name trimmed, value after the first colon trimmed", () => {
    expect(parseHeaders("  Authorization :  Bearer a:b:c  \r\n\nX-Empty:\nX-Url: http://x:1/y")).toEqual({
      headers: [
        ["Authorization", "Bearer a:b:c"],
        ["X-Empty", ""],
        ["X-Url", "http://x:1/y"],
      ],
      errors: [],
    });
  });

  it("says which header lines are wrong", () => {
    expect(parseHeaders("Authorization Bearer x\n: value\nGood: yes\nBad Name: v").errors).toEqual([
      'Header line 1 is not "Name: value": "Authorization Bearer x"',
      'Header line 2 is not "Name: value": ": value"',
      'Header line 4: "Bad Name" is not a valid header name',
    ]);
  });

  it("builds an HTTP entry and fills the form back from it", () => {
    const values = {
      ...emptyForm,
      name: " Remote ",
      transport: "http" as const,
      url: " https://example.com/mcp ",
      // The engine guesses Authorization is a secret.
      headers: withSecretGuesses(rowsFromText("header", "Authorization: Bearer t0k\nX-Team :  blue ").rows, [true, false]),
      mode: "legacy_sse" as const,
      // stdio fields left over from switching transports are not saved
      command: "ignored",
    };
    const { entry, errors } = entryFromForm(values, "id-2");
    expect(errors).toEqual([]);
    expect(entry).toEqual({
      id: "id-2",
      name: "Remote",
      era: "auto",
      target: {
        transport: "http",
        url: "https://example.com/mcp",
        headers: [
          ["Authorization", "Bearer t0k"],
          ["X-Team", "blue"],
        ],
        secret_headers: ["Authorization"],
        mode: "legacy_sse",
        oauth: { client_id: null, client_metadata_url: null, dpop: "auto", workload_identity: null },
      },
    });
    // The catalog keeps the secret's name only: the form shows it stored, its value masked.
    expect(formFromEntry(entry!)).toEqual({
      ...emptyForm,
      name: "Remote",
      transport: "http",
      url: "https://example.com/mcp",
      headers: [
        row("Authorization", "", { secret: true, secretChosen: true, stored: true }),
        row("X-Team", "blue", { secretChosen: true }),
      ],
      mode: "legacy_sse",
    });
  });

  it("defaults to the automatic mode", () => {
    expect(emptyForm.mode).toBe("auto");
    const { entry } = entryFromForm({ ...emptyForm, name: "R", transport: "http", url: "http://localhost:3000/mcp" }, "i");
    expect(entry?.target).toEqual({
      transport: "http",
      url: "http://localhost:3000/mcp",
      headers: [],
      secret_headers: [],
      mode: "auto",
      oauth: { client_id: null, client_metadata_url: null, dpop: "auto", workload_identity: null },
    });
  });

  it("keeps the sign-in choices and refuses a non-https metadata document URL", () => {
    const values = {
      ...emptyForm,
      name: "R",
      transport: "http" as const,
      url: "https://example.com/mcp",
      clientId: " my-client ",
      clientMetadataUrl: "https://example.com/client.json",
    };
    const { entry } = entryFromForm(values, "i");
    expect(entry?.target).toMatchObject({
      oauth: { client_id: "my-client", client_metadata_url: "https://example.com/client.json", dpop: "auto", workload_identity: null },
    });
    expect(formFromEntry(entry!)).toMatchObject({ clientId: "my-client", clientMetadataUrl: "https://example.com/client.json" });
    expect(entryFromForm({ ...values, clientMetadataUrl: "http://example.com/c.json" }, "i").errors).toEqual([
      "A client ID metadata document URL must be an https:// URL.",
    ]);
  });

  it("keeps DPoP and the workload identity source, never a token, and says what is missing", () => {
    const values = { ...emptyForm, name: "R", transport: "http" as const, url: "https://example.com/mcp" };
    const file = entryFromForm({ ...values, dpop: "required", workloadSource: "file", workloadValue: " /run/token " }, "i");
    expect(file.entry?.target).toMatchObject({
      oauth: { dpop: "required", workload_identity: { source: "file", path: "/run/token" } },
    });
    expect(formFromEntry(file.entry!)).toMatchObject({ dpop: "required", workloadSource: "file", workloadValue: "/run/token" });
    const env = entryFromForm({ ...values, dpop: "off", workloadSource: "env", workloadValue: "MCP_TOKEN" }, "i");
    expect(env.entry?.target).toMatchObject({
      oauth: { dpop: "off", workload_identity: { source: "env", name: "MCP_TOKEN" } },
    });
    expect(formFromEntry(env.entry!)).toMatchObject({ workloadSource: "env", workloadValue: "MCP_TOKEN" });
    expect(entryFromForm({ ...values, workloadSource: "file" }, "i").errors).toEqual([
      "Give the path of the workload identity token file.",
    ]);
    expect(entryFromForm({ ...values, workloadSource: "env", workloadValue: "A=B" }, "i").errors).toEqual([
      '"A=B" is not an environment variable name.',
    ]);
    // A value typed for a source then set back to none is not kept.
    expect(entryFromForm({ ...values, workloadSource: "none", workloadValue: "/run/token" }, "i").entry?.target).toMatchObject({
      oauth: { workload_identity: null },
    });
  });

  it("says what is wrong with the URL and the headers", () => {
    expect(entryFromForm({ ...emptyForm, name: "R", transport: "http" }, "i").errors).toEqual(["Give the server's URL."]);
    expect(
      entryFromForm({ ...emptyForm, name: "R", transport: "http", url: "not a url", headers: [row("Bad Name", "v")] }, "i")
        .errors,
    ).toEqual(['"not a url" is not a valid URL.', 'Header 1: "Bad Name" is not a valid header name']);
    expect(entryFromForm({ ...emptyForm, name: "R", transport: "http", url: "ftp://host/x" }, "i").errors).toEqual([
      "The URL must start with http:// or https:// (not ftp:).",
    ]);
  });
});

describe("server form: secret values", () => {
  it("follows the engine's guess until the user chooses", () => {
    let rows = [row("OPENAI_API_KEY", ""), row("LEVEL", "debug"), emptyRow];
    expect(guessedPairs(rows)).toEqual([
      ["OPENAI_API_KEY", ""],
      ["LEVEL", "debug"],
    ]);
    rows = withSecretGuesses(rows, [true, false]);
    expect(rows.map((r) => r.secret)).toEqual([true, false, false]);
    expect(withSecretGuesses(rows, [true, false])).toBe(rows);
    const chosen = [{ ...rows[0]!, secret: false, secretChosen: true }, rows[1]!];
    expect(guessedPairs(chosen)).toEqual([["LEVEL", "debug"]]);
    expect(withSecretGuesses(chosen, [true]).map((r) => r.secret)).toEqual([false, true]);
    // An edit keeps the flag until the engine answers again.
    expect(editRow(rows[1]!, { value: "sk-proj-123" }).secret).toBe(false);
  });

  it("sends secret names with the values typed, and an empty value for a stored one", () => {
    const { pairs, secret, errors } = pairsFromRows("env", [
      row("API_KEY", "sk-new", { secret: true }),
      row("OLD_TOKEN", "", { secret: true, stored: true }),
      row("LEVEL", "debug"),
      row("", ""),
    ]);
    expect(errors).toEqual([]);
    expect(pairs).toEqual([
      ["API_KEY", "sk-new"],
      ["OLD_TOKEN", ""],
      ["LEVEL", "debug"],
    ]);
    expect(secret).toEqual(["API_KEY", "OLD_TOKEN"]);
  });

  it("asks for the value of a new secret, and of a stored one given another name", () => {
    expect(pairsFromRows("env", [row("API_KEY", "", { secret: true })]).errors).toEqual([
      "Give a value for the secret API_KEY.",
    ]);
    const stored = row("API_KEY", "", { secret: true, secretChosen: true, stored: true });
    const renamed = editRow(stored, { name: "API_TOKEN" });
    expect(renamed.stored).toBe(false);
    expect(pairsFromRows("env", [renamed]).errors).toEqual(["Give a value for the secret API_TOKEN."]);
    expect(pairsFromRows("env", [row("", "orphan")]).errors).toEqual(["Environment variable 1 has a value but no name."]);
  });

  it("turns pasted lines into rows, for the engine to guess", () => {
    const { rows, errors } = rowsFromText("env", "LEVEL=debug\nGITHUB_TOKEN=ghp_abc\nbroken");
    expect(rows.map((r) => [r.name, r.value, r.secret])).toEqual([
      ["LEVEL", "debug", false],
      ["GITHUB_TOKEN", "ghp_abc", false],
    ]);
    expect(guessedPairs(rows)).toEqual([
      ["LEVEL", "debug"],
      ["GITHUB_TOKEN", "ghp_abc"],
    ]);
    expect(errors).toEqual(['Environment line 3 is not KEY=VALUE: "broken"']);
  });
});
