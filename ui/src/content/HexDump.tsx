import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { formatBytes } from "../format";
import { base64Bytes, hexDumpLines } from "./hexDump";

/** How much of a blob the dump shows (the rest is one Save away). */
export const HEX_LIMIT = 64 * 1024;

/** A blob as `hexdump -C` would print it. */
export function HexDump({ data }: { data: string }) {
  const { t } = useTranslation("content");
  const dump = useMemo(() => {
    try {
      const bytes = base64Bytes(data);
      return { lines: hexDumpLines(bytes, HEX_LIMIT), size: bytes.length, error: null };
    } catch (error) {
      return { lines: [], size: 0, error: String(error) };
    }
  }, [data]);
  if (dump.error !== null) return <div className="inline-error">{t("hex.invalid", { error: dump.error })}</div>;
  return (
    <>
      <pre className="code-block hex-dump" data-testid="hex-dump">
        {dump.lines.join("\n")}
      </pre>
      {dump.size > HEX_LIMIT && (
        <p className="muted small">{t("hex.truncated", { shown: formatBytes(HEX_LIMIT), size: formatBytes(dump.size) })}</p>
      )}
    </>
  );
}
