// How numbers, times and command lines read on screen.
import type { ServerTarget } from "./bindings/ServerTarget";
import type { StdioTarget } from "./bindings/StdioTarget";
import i18n from "./i18n";

// Number formats of the current language, made once per language (rows call these often).
const formats = new Map<string, { count: Intl.NumberFormat; decimal: Intl.NumberFormat }>();
function numberFormats(): { count: Intl.NumberFormat; decimal: Intl.NumberFormat } {
  const language = i18n.language || "en";
  let made = formats.get(language);
  if (!made) {
    made = {
      count: new Intl.NumberFormat(language),
      decimal: new Intl.NumberFormat(language, { minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false }),
    };
    formats.set(language, made);
  }
  return made;
}

/** A count with the current language's digit grouping: `20,003`. */
export function formatNumber(n: number): string {
  return numberFormats().count.format(n);
}

/** A number with one decimal in the current language, without grouping: `1234.5`. */
function oneDecimal(n: number): string {
  return numberFormats().decimal.format(n);
}

const pad2 = (n: number) => String(n).padStart(2, "0");

/** Local wall-clock time `HH:MM:SS.mmm` of a µs-since-epoch timestamp. */
export function formatTime(wallUs: number): string {
  if (!Number.isFinite(wallUs)) return "--:--:--.---";
  const date = new Date(Math.floor(wallUs / 1000));
  const ms = String(date.getMilliseconds()).padStart(3, "0");
  return `${pad2(date.getHours())}:${pad2(date.getMinutes())}:${pad2(date.getSeconds())}.${ms}`;
}

const UNITS = ["KiB", "MiB", "GiB", "TiB"];

/** `0 B`, `999 B`, `1.5 KiB`, `12.0 MiB`. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "?";
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${oneDecimal(value)} ${UNITS[unit]}`;
}

/** A latency in µs as milliseconds with one decimal: `0.4 ms`, `1234.5 ms`. */
export function formatLatency(us: number): string {
  if (!Number.isFinite(us)) return "?";
  return `${oneDecimal(us / 1000)} ms`;
}

/** Quotes one argument the way a POSIX shell would need it, only when it needs it. */
export function shellQuote(arg: string): string {
  if (arg === "") return "''";
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The command line a target runs, as one readable line. */
export function commandLine(target: StdioTarget): string {
  return [target.command, ...target.args].map(shellQuote).join(" ");
}

/** What a target reaches, on one line: the command line (stdio) or the URL (HTTP). */
export function targetLine(target: ServerTarget): string {
  return target.transport === "http" ? target.url : commandLine(target);
}

/** The transport as the status line names it: `stdio` or `HTTP`. */
export function transportLabel(target: ServerTarget): string {
  return target.transport === "http" ? "HTTP" : "stdio";
}

/** How many bytes a base64 string decodes to. */
export function base64Size(base64: string): number {
  const clean = base64.replace(/\s/g, "");
  if (clean.length === 0) return 0;
  const padding = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0;
  return Math.floor((clean.length * 3) / 4) - padding;
}

/** A `data:` URI for base64 content (the app's CSP allows images only as data: URIs). */
export function dataUri(mimeType: string, base64: string): string {
  return `data:${mimeType};base64,${base64.replace(/\s/g, "")}`;
}
