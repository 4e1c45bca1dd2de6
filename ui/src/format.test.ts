import { describe, expect, it } from "vitest";
import {
  base64Size,
  commandLine,
  dataUri,
  formatBytes,
  formatLatency,
  formatTime,
  shellQuote,
  targetLine,
  transportLabel,
} from "./format";

describe("formatTime", () => {
  it("shows local HH:MM:SS.mmm of a µs timestamp", () => {
    const local = new Date(2025, 10, 22, 9, 5, 7, 42); // local time, whatever the zone
    const wallUs = local.getTime() * 1000 + 999; // sub-millisecond part is cut, not rounded
    expect(formatTime(wallUs)).toBe("09:05:07.042");
  });

  it("pads every field", () => {
    const local = new Date(2025, 0, 1, 0, 0, 0, 0);
    expect(formatTime(local.getTime() * 1000)).toBe("00:00:00.000");
  });

  it("says it cannot show a non-number", () => {
    expect(formatTime(Number.NaN)).toBe("--:--:--.---");
  });
});

describe("formatBytes", () => {
  it("keeps small sizes in bytes", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1023)).toBe("1023 B");
  });

  it("switches to binary units with one decimal", () => {
    expect(formatBytes(1024)).toBe("1.0 KiB");
    expect(formatBytes(1536)).toBe("1.5 KiB");
    expect(formatBytes(64 * 1024 * 1024)).toBe("64.0 MiB");
    expect(formatBytes(3 * 1024 ** 3)).toBe("3.0 GiB");
  });
});

describe("formatLatency", () => {
  it("shows milliseconds with one decimal", () => {
    expect(formatLatency(0)).toBe("0.0 ms");
    expect(formatLatency(1234)).toBe("1.2 ms");
    expect(formatLatency(1250)).toBe("1.3 ms");
    expect(formatLatency(2_500_000)).toBe("2500.0 ms");
  });
});

describe("command lines", () => {
  it("quotes only what a shell would need quoted", () => {
    expect(shellQuote("--port=8080")).toBe("--port=8080");
    expect(shellQuote("two words")).toBe("'two words'");
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote("")).toBe("''");
  });

  it("joins the command and its arguments", () => {
    expect(
      commandLine({ command: "npx", args: ["-y", "@modelcontextprotocol/server-everything", "a b"], env: [], cwd: null, secret_env: [] }),
    ).toBe("npx -y @modelcontextprotocol/server-everything 'a b'");
  });

  it("shows a target as its command line or its URL", () => {
    const stdio = { transport: "stdio" as const, command: "demo", args: ["a b"], env: [], cwd: null, secret_env: [] };
    const http = {
      transport: "http" as const,
      url: "https://x.test/mcp",
      headers: [],
      secret_headers: [],
      mode: "auto" as const,
      oauth: { client_id: null, client_metadata_url: null, dpop: "auto" as const, workload_identity: null },
    };
    expect(targetLine(stdio)).toBe("demo 'a b'");
    expect(targetLine(http)).toBe("https://x.test/mcp");
    expect(transportLabel(stdio)).toBe("stdio");
    expect(transportLabel(http)).toBe("HTTP");
  });
});

describe("base64", () => {
  it("knows how many bytes a base64 string holds", () => {
    expect(base64Size(btoa("a"))).toBe(1);
    expect(base64Size(btoa("ab"))).toBe(2);
    expect(base64Size(btoa("abc"))).toBe(3);
    expect(base64Size("")).toBe(0);
  });

  it("builds data: URIs without whitespace", () => {
    expect(dataUri("image/png", "iVBO\nRw0K")).toBe("data:image/png;base64,iVBORw0K");
  });
});
