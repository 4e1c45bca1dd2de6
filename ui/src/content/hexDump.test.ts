import { describe, expect, it } from "vitest";
import { base64Bytes, hexDumpLines } from "./hexDump";

describe("hex dump", () => {
  it("decodes base64, ignoring whitespace", () => {
    expect([...base64Bytes("AAEC\n/w==")]).toEqual([0, 1, 2, 255]);
    expect(() => base64Bytes("not base64!")).toThrow();
  });

  it("shows offset, two groups of eight bytes and the printable characters", () => {
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x41]);
    expect(hexDumpLines(bytes)).toEqual([
      "00000000  89 50 4e 47 0d 0a 1a 0a  00 00 00 0d 49 48 44 52  |.PNG........IHDR|",
      "00000010  41                                                |A|",
    ]);
  });

  it("stops at the limit and shows nothing for no bytes", () => {
    const bytes = new Uint8Array(100).fill(0x7e);
    const lines = hexDumpLines(bytes, 32);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(`00000010  ${"7e ".repeat(8)} ${"7e ".repeat(8)} |${"~".repeat(16)}|`);
    expect(hexDumpLines(new Uint8Array())).toEqual([]);
  });
});
