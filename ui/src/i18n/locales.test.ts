// The missing-string check of the test command: every language has every key of English, the
// plural forms its language needs, the same placeholders, no empty string and no sentence left
// in English; every file under locales/ is registered in resources.ts.
import { describe, expect, it } from "vitest";
import { resources } from "./resources";
import { SHIPPED } from "./language";

type Tree = { [key: string]: string | Tree };

const files = import.meta.glob<{ default: Tree }>("./locales/*/*.json", { eager: true });

const PLURAL = /_(zero|one|two|few|many|other)$/;

function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

/** Keys with their plural suffix taken off, each with the forms present. */
function bases(flat: Map<string, string>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const key of flat.keys()) {
    const match = PLURAL.exec(key);
    const base = match ? key.slice(0, match.index) : key;
    const forms = out.get(base) ?? new Set<string>();
    if (match?.[1]) forms.add(match[1]);
    out.set(base, forms);
  }
  return out;
}

const placeholders = (text: string): string[] =>
  [...text.matchAll(/\{\{\s*([^}\s,]+)[^}]*\}\}/g)].map((m) => m[1] ?? "").sort();

function placeholdersOf(flat: Map<string, string>, base: string): string[] {
  const all = new Set<string>();
  for (const [key, value] of flat) {
    if (key === base || (key.startsWith(`${base}_`) && PLURAL.test(key))) {
      for (const name of placeholders(value)) all.add(name);
    }
  }
  return [...all].sort();
}

const table = resources as unknown as Record<string, Record<string, Tree>>;
const namespaces = Object.keys(table.en ?? {});

describe("locales", () => {
  it("registers every locale file in resources.ts", () => {
    const onDisk = Object.keys(files)
      .map((path) => path.replace("./locales/", "").replace(".json", ""))
      .sort();
    const registered = SHIPPED.flatMap((lang) => Object.keys(table[lang] ?? {}).map((ns) => `${lang}/${ns}`)).sort();
    expect(registered).toEqual(onDisk);
  });

  for (const lang of SHIPPED) {
    const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
    for (const ns of namespaces) {
      it(`${lang}/${ns} has every key, plural form and placeholder of English`, () => {
        const en = flatten(table.en?.[ns] ?? {});
        const other = flatten(table[lang]?.[ns] ?? {});
        const enBases = bases(en);
        const otherBases = bases(other);
        const problems: string[] = [];
        for (const [base, forms] of enBases) {
          const theirs = otherBases.get(base);
          if (!theirs) {
            problems.push(`missing: ${ns}:${base}`);
            continue;
          }
          if (forms.size > 0) {
            for (const category of categories) {
              if (!theirs.has(category)) problems.push(`missing plural form: ${ns}:${base}_${category}`);
            }
          }
          const want = placeholdersOf(en, base).join(",");
          const got = placeholdersOf(other, base).join(",");
          if (want !== got) problems.push(`placeholders differ in ${ns}:${base}: {${want}} vs {${got}}`);
        }
        for (const base of otherBases.keys()) {
          if (!enBases.has(base)) problems.push(`not in English: ${ns}:${base}`);
        }
        for (const [key, value] of other) {
          if (value.trim() === "") problems.push(`empty: ${ns}:${key}`);
          if (lang !== "en" && value === en.get(key) && /[a-z]{3,} [a-z]{3,}/.test(value)) {
            problems.push(`left in English: ${ns}:${key} = "${value}"`);
          }
        }
        expect(problems).toEqual([]);
      });
    }
  }
});
