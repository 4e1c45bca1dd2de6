import { useMemo } from "react";
import { formatBytes } from "../format";
import { base64Bytes, hexDumpLines } from "./hexDump";

/** How much of a blob the dump shows (the rest is one Save away). */
export const HEX_LIMIT = 64 * 1024;

/** A blob as `hexdump -C` would print it. */
export function HexDump({ data }: { data: string }) {
  const dump = useMemo(() => {
    try {
      const bytes = base64Bytes(data);
      return { lines: hexDumpLines(bytes, HEX_LIMIT), size: bytes.length, error: null };
    } catch (error) {
      return { lines: [], size: 0, error: String(error) };
    }
  }, [data]);
  if (dump.error !== null) return <div className="inline-error">The blob is not valid base64: {dump.error}</div>;
  return (
    <>
      <pre className="code-block hex-dump" data-testid="hex-dump">
        {dump.lines.join("\n")}
      </pre>
      {dump.size > HEX_LIMIT && (
        <p className="muted small">
          The first {formatBytes(HEX_LIMIT)} of {formatBytes(dump.size)}; save the file to see all of it.
        </p>
      )}
    </>
  );
}
