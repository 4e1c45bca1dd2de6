import { describe, expect, it } from "vitest";
import { EXAMPLES, routePaste } from "./route";

describe("where the welcome view's Continue goes", () => {
  it("sends an http(s) URL to the server form, named after its host", () => {
    expect(routePaste("  https://example.com/mcp \n")).toEqual({
      kind: "url",
      url: "https://example.com/mcp",
      name: "example.com",
    });
    expect(routePaste("http://127.0.0.1:8080/mcp")).toMatchObject({ kind: "url", name: "127.0.0.1" });
    expect(routePaste("HTTPS://Example.COM/mcp")).toMatchObject({ kind: "url", name: "example.com" });
  });

  it("reads anything that is not only a URL as a command line", () => {
    expect(routePaste("npx -y @modelcontextprotocol/server-everything")).toEqual({
      kind: "command",
      text: "npx -y @modelcontextprotocol/server-everything",
    });
    // A command that takes a URL is still a command.
    expect(routePaste("npx mcp-remote https://example.com/mcp").kind).toBe("command");
    expect(routePaste("uvx mcp-server-fetch").kind).toBe("command");
    // Not http(s), or not a URL at all.
    expect(routePaste("ftp://example.com/mcp").kind).toBe("command");
    expect(routePaste("https://").kind).toBe("command");
    expect(routePaste("example.com/mcp").kind).toBe("command");
  });

  it("sends a JSON config to the import preview", () => {
    const config = '{"mcpServers": {"fetch": {"command": "uvx", "args": ["mcp-server-fetch"]}}}';
    expect(routePaste(`\n${config}\n`)).toEqual({ kind: "config", text: config });
    expect(routePaste('[{"name": "x"}]').kind).toBe("config");
    // Broken JSON still goes to the preview, which says what is wrong with it.
    expect(routePaste('{"mcpServers": ').kind).toBe("config");
  });

  it("has nothing to do with nothing", () => {
    expect(routePaste("")).toEqual({ kind: "empty" });
    expect(routePaste(" \n\t")).toEqual({ kind: "empty" });
  });

  it("offers one example of each kind, each routed as its kind", () => {
    expect(EXAMPLES.map((e) => e.kind)).toEqual(["command", "url", "config"]);
    for (const example of EXAMPLES) expect(routePaste(example.text).kind).toBe(example.kind);
    expect(JSON.parse(EXAMPLES[2]!.text)).toHaveProperty("mcpServers.everything.command", "npx");
  });
});
