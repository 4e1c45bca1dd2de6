// Random testing of the URI templates a server sends in resources/templates/list (RFC 6570): the
// parser and expansion live only here, in the UI, so this is their fuzzing (docs/fuzzing.md).
// Templates are built from the pieces that matter to the grammar, values from awkward text.
// Every run is seeded and reproducible; `scripts/fuzz.sh uri_template SECONDS` runs it longer
// (FUZZ_SECONDS), `npm test` runs a short pass.
import { describe, expect, it } from "vitest";
import { expandTemplate, parseTemplate, templateVariables, TemplateError, type TemplatePart } from "./uriTemplate";

// Tests run in Node; the UI's types do not include Node's.
const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
const SECONDS = Number(env.FUZZ_SECONDS ?? "0");
const ITERATIONS = 3000;
const SEED = Number(env.FUZZ_SEED ?? "20251115");

/** mulberry32: a small seeded generator, so a failure names its seed and repeats. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TEMPLATE_PIECES = [
  "{", "}", "{", "}", "+", "#", ".", "/", ";", "?", "&", "=", ",", "!", "@", "|", "*", ":",
  "1", "3", "0", "9999", "10000", "var", "x", "list", "a.b", "a..b", "_", "%2F", "%2", "%zz", "%",
  "demo://", "file:///", "é", "😀", "\u{d800}", " ", "\n", "\u0000", "[", "]", "'", "\\",
];
const VALUE_PIECES = [
  "a", "Z", "0", "-", ".", "_", "~", " ", "/", "?", "#", "&", "=", "%", "%41", "%4", "+", ",",
  ";", ":", "@", "[", "]", "é", "€", "😀", "\u{d800}", "\u{dfff}", "\u0000", "\n", "\"", "<",
];
const NAMES = ["var", "x", "list", "a.b", "_", "%2F", "q", "page"];

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

function text(random: () => number, pieces: readonly string[], max: number): string {
  let out = "";
  const n = Math.floor(random() * max);
  for (let i = 0; i < n; i += 1) out += pick(random, pieces);
  return out;
}

/** The template a parse result was read from. */
function unparse(parts: TemplatePart[]): string {
  return parts
    .map((part) =>
      "literal" in part
        ? part.literal
        : `{${part.operator}${part.variables
            .map((v) => `${v.name}${v.prefix === null ? "" : `:${v.prefix}`}${v.explode ? "*" : ""}`)
            .join(",")}}`,
    )
    .join("");
}

/** Only URI characters, and every `%` starts an escape. */
const URI = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;

const OPERATORS = ["", "", "+", "#", ".", "/", ";", "?", "&", "=", "!"];
const LITERALS = ["demo://items/", "/", "?x=1&", "file:///", "é", "%2F", "%", " ", "a", "#f", "😀"];

/** Mostly well-formed templates, with a random piece dropped in here and there. */
function randomTemplate(random: () => number): string {
  if (random() < 0.2) return text(random, TEMPLATE_PIECES, 24);
  let out = "";
  const segments = 1 + Math.floor(random() * 5);
  for (let i = 0; i < segments; i += 1) {
    if (random() < 0.4) {
      out += pick(random, LITERALS);
    } else {
      const specs = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
        const name = pick(random, NAMES);
        const r = random();
        return r < 0.2 ? `${name}*` : r < 0.4 ? `${name}:${pick(random, ["1", "3", "0", "9999", "10000", "x"])}` : name;
      });
      out += `{${pick(random, OPERATORS)}${specs.join(",")}}`;
    }
    if (random() < 0.15) out += pick(random, TEMPLATE_PIECES);
  }
  return out;
}

function check(random: () => number): void {
  const template = randomTemplate(random);
  let parts: TemplatePart[];
  try {
    parts = parseTemplate(template);
  } catch (e) {
    // A broken template is said so, never anything else.
    expect(e, JSON.stringify(template)).toBeInstanceOf(TemplateError);
    expect(() => expandTemplate(template, {}), JSON.stringify(template)).toThrow(TemplateError);
    return;
  }
  expect(unparse(parts), JSON.stringify(template)).toBe(template);
  const names = templateVariables(template).map((v) => v.name);
  expect(new Set(names).size).toBe(names.length);
  const values: Record<string, string> = {};
  for (const name of [...names, pick(random, NAMES)]) values[name] = text(random, VALUE_PIECES, 12);
  const uri = expandTemplate(template, values);
  expect(uri, JSON.stringify({ template, values })).toMatch(URI);
  // With no values, only the literals are left, each encoded on its own.
  const literals = parts.map((p) => ("literal" in p ? expandTemplate(p.literal, {}) : "")).join("");
  expect(expandTemplate(template, {}), JSON.stringify(template)).toBe(literals);
}

describe("URI templates, fuzzed", () => {
  it(
    `parse, re-read and expand random templates without a stray error or a non-URI character (seed ${SEED})`,
    () => {
      const random = generator(SEED);
      const deadline = Date.now() + SECONDS * 1000;
      let runs = 0;
      while (runs < ITERATIONS || Date.now() < deadline) {
        check(random);
        runs += 1;
      }
      if (SECONDS > 0) console.log(`uri_template: ${runs} templates in ${SECONDS} s (seed ${SEED})`);
    },
    SECONDS * 1000 + 60_000,
  );
});
