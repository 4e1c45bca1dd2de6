/**
 * Characters in a server's text that a model reads and a person does not see: tag characters,
 * zero-width, bidi and other format characters, controls and blank letters. The same classes
 * as the engine's hidden_text.rs, which the CLI uses; fixtures/hidden-text.json holds both to
 * the same marks (each side's tests read it).
 */

export type HiddenKind = "tag" | "zero_width" | "bidi" | "format" | "control" | "blank_letter";

/** One piece of a text: as it is, or a run of hidden characters of one kind. */
export type TextPart =
  | { kind: "plain"; text: string }
  | { kind: "hidden"; hidden: HiddenKind; codePoints: number[]; spells: string | null };

const ZERO_WIDTH = new Set([0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x180e]);
const BLANK_LETTERS = new Set([0x115f, 0x1160, 0x3164, 0xffa0]);
const FORMAT = /^\p{Cf}$/u;
const CONTROL = /^\p{Cc}$/u;

/** The kind of hidden character `c` (one code point) is, if it is one. */
export function kindOf(c: string): HiddenKind | null {
  const cp = c.codePointAt(0) ?? 0;
  if (cp >= 0xe0000 && cp <= 0xe007f) return "tag";
  if (ZERO_WIDTH.has(cp)) return "zero_width";
  if (cp === 0x061c || cp === 0x200e || cp === 0x200f || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) {
    return "bidi";
  }
  if (BLANK_LETTERS.has(cp)) return "blank_letter";
  if (c === "\n" || c === "\t") return null;
  if (CONTROL.test(c)) return "control";
  if (FORMAT.test(c)) return "format";
  return null;
}

/** `text` split into plain pieces and runs of hidden characters, in order. */
export function textParts(text: string): TextPart[] {
  const parts: TextPart[] = [];
  for (const c of text) {
    const hidden = kindOf(c);
    const last = parts[parts.length - 1];
    if (hidden === null) {
      if (last?.kind === "plain") last.text += c;
      else parts.push({ kind: "plain", text: c });
    } else if (last?.kind === "hidden" && last.hidden === hidden) {
      last.codePoints.push(c.codePointAt(0) ?? 0);
    } else {
      parts.push({ kind: "hidden", hidden, codePoints: [c.codePointAt(0) ?? 0], spells: null });
    }
  }
  for (const part of parts) {
    if (part.kind === "hidden" && part.hidden === "tag") {
      part.spells = part.codePoints
        .map((cp) => cp - 0xe0000)
        .filter((ascii) => ascii >= 0x20 && ascii <= 0x7e)
        .map((ascii) => String.fromCharCode(ascii))
        .join("");
    }
  }
  return parts;
}

/** True when `text` holds a hidden character. */
export function hasHidden(text: string): boolean {
  for (const c of text) if (kindOf(c) !== null) return true;
  return false;
}

const codePoint = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;

/** How a run is written: `⟦U+202E⟧` a character; a tag run once, with what it spells. */
export function markOf(part: Extract<TextPart, { kind: "hidden" }>): string {
  const { codePoints } = part;
  if (part.hidden === "tag" && codePoints.length > 1) {
    const first = codePoints[0]!;
    const last = codePoints[codePoints.length - 1]!;
    return `⟦${codePoint(first)}…${codePoint(last)}, ${codePoints.length} tag characters: ${JSON.stringify(part.spells ?? "")}⟧`;
  }
  return codePoints.map((cp) => `⟦${codePoint(cp)}⟧`).join("");
}

/** `text` with every hidden character written where it is, as the CLI prints it. */
export function visibleText(text: string): string {
  return textParts(text)
    .map((part) => (part.kind === "plain" ? part.text : markOf(part)))
    .join("");
}
