// Binary contents as a hex dump: offset, 16 bytes in two groups of 8, and their printable ASCII.

/** Decodes base64 (whitespace ignored); throws on anything that is not base64. */
export function base64Bytes(base64: string): Uint8Array {
  const binary = atob(base64.replace(/\s/g, ""));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const hex2 = (n: number) => n.toString(16).padStart(2, "0");

/** One line per 16 bytes, like `hexdump -C`: `00000010  00 01 … 07  08 … 0f  |........ ........|`. */
export function hexDumpLines(bytes: Uint8Array, limit: number = bytes.length): string[] {
  const end = Math.min(limit, bytes.length);
  const lines: string[] = [];
  for (let offset = 0; offset < end; offset += 16) {
    const row = bytes.subarray(offset, Math.min(offset + 16, end));
    let hex = "";
    let ascii = "";
    for (let i = 0; i < 16; i += 1) {
      if (i === 8) hex += " ";
      const byte = row[i];
      hex += byte === undefined ? "   " : `${hex2(byte)} `;
      if (byte !== undefined) ascii += byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : ".";
    }
    lines.push(`${offset.toString(16).padStart(8, "0")}  ${hex} |${ascii}|`);
  }
  return lines;
}
