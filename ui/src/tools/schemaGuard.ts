// Checks run on a tool's inputSchema before the generated form sees it. The form library walks
// schemas recursively and renders every enum value, so a hostile or broken schema could freeze
// the page; such a schema gets the raw JSON editor instead, with the reason shown.
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import i18n from "../i18n";

export const GUARD_LIMITS = {
  /** Deepest nesting of objects/arrays in the schema. */
  maxDepth: 64,
  /** Most JSON values in the schema. */
  maxNodes: 20_000,
  /** Most values in one enum, or options in one oneOf/anyOf. */
  maxChoices: 1_000,
  /** Most characters of strings and keys, together. */
  maxChars: 1_000_000,
  /** Most `$ref`s (their cycle check is quadratic). */
  maxRefs: 2_000,
};

type Obj = { [key: string]: JsonValue };
const isObj = (v: JsonValue | undefined): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Why a schema is refused, to be put in words (in the UI's language) when shown. */
export type GuardReason =
  | { kind: "tooManyValues"; max: number }
  | { kind: "tooDeep"; max: number }
  | { kind: "tooManyChoices"; keyword: string; at: string; entries: number; max: number }
  | { kind: "tooLarge"; kb: number }
  | { kind: "tooManyRefs"; max: number }
  | { kind: "cycle"; target: string };

const count = (n: number) => n.toLocaleString("en");

/** The reason in words, in the UI's language now. */
export function describeGuard(reason: GuardReason): string {
  switch (reason.kind) {
    case "tooManyValues":
      return i18n.t("tools:guard.tooManyValues", { max: count(reason.max) });
    case "tooDeep":
      return i18n.t("tools:guard.tooDeep", { max: reason.max });
    case "tooManyChoices":
      return i18n.t("tools:guard.tooManyChoices", {
        keyword: reason.keyword,
        at: reason.at,
        entries: count(reason.entries),
        max: count(reason.max),
      });
    case "tooLarge":
      return i18n.t("tools:guard.tooLarge", { kb: reason.kb });
    case "tooManyRefs":
      return i18n.t("tools:guard.tooManyRefs", { max: reason.max });
    case "cycle":
      return i18n.t("tools:guard.cycle", { target: reason.target });
  }
}

const escapeToken = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

/** Why the schema should not be given to the form, or null when it may. */
export function guardReason(schema: JsonValue | undefined): GuardReason | null {
  if (schema === undefined) return null;
  const refs: Array<{ at: string; target: string }> = [];
  let nodes = 0;
  let chars = 0;
  const stack: Array<{ value: JsonValue; depth: number; at: string; key: string | null }> = [
    { value: schema, depth: 1, at: "", key: null },
  ];
  while (stack.length > 0) {
    const { value, depth, at, key } = stack.pop()!;
    nodes += 1;
    if (nodes > GUARD_LIMITS.maxNodes) {
      return { kind: "tooManyValues", max: GUARD_LIMITS.maxNodes };
    }
    if (depth > GUARD_LIMITS.maxDepth) {
      return { kind: "tooDeep", max: GUARD_LIMITS.maxDepth };
    }
    if (typeof value === "string") {
      chars += value.length;
    } else if (Array.isArray(value)) {
      if ((key === "enum" || key === "oneOf" || key === "anyOf") && value.length > GUARD_LIMITS.maxChoices) {
        return { kind: "tooManyChoices", keyword: key, at, entries: value.length, max: GUARD_LIMITS.maxChoices };
      }
      value.forEach((item, index) => stack.push({ value: item, depth: depth + 1, at: `${at}/${index}`, key: null }));
    } else if (isObj(value)) {
      for (const [k, v] of Object.entries(value)) {
        chars += k.length;
        if (k === "$ref" && typeof v === "string" && key !== "properties") refs.push({ at, target: v });
        stack.push({ value: v, depth: depth + 1, at: `${at}/${escapeToken(k)}`, key: k });
      }
    }
    if (chars > GUARD_LIMITS.maxChars) {
      return { kind: "tooLarge", kb: Math.round(GUARD_LIMITS.maxChars / 1000) };
    }
  }
  if (refs.length > GUARD_LIMITS.maxRefs) return { kind: "tooManyRefs", max: GUARD_LIMITS.maxRefs };
  return refCycle(refs);
}

/** A local `$ref` as a JSON pointer into the schema ("" for the root), or null. */
function pointerOf(ref: string): string | null {
  if (!ref.startsWith("#")) return null;
  try {
    return decodeURIComponent(ref.slice(1));
  } catch {
    return null;
  }
}

const within = (at: string, target: string) => at === target || at.startsWith(`${target}/`);

/**
 * Says whether the `$ref`s are recursive: a ref reaches (through its target's subtree) a ref
 * that leads back to it. Recursive schemas are refused, since the form would expand them
 * without end; the JSON editor (and the validator, in Rust) handle them.
 */
function refCycle(refs: Array<{ at: string; target: string }>): GuardReason | null {
  const targets = refs.map((r) => pointerOf(r.target));
  // Edge i → j when ref j sits inside the subtree ref i points at.
  const next = refs.map((_, i) => {
    const target = targets[i];
    if (target === null || target === undefined) return [];
    return refs.flatMap((r, j) => (within(r.at, target) ? [j] : []));
  });
  const state = new Array<0 | 1 | 2>(refs.length).fill(0); // unseen, on the path, done
  for (let start = 0; start < refs.length; start++) {
    if (state[start] !== 0) continue;
    const path: Array<{ node: number; edge: number }> = [{ node: start, edge: 0 }];
    state[start] = 1;
    while (path.length > 0) {
      const top = path[path.length - 1]!;
      const edges = next[top.node]!;
      if (top.edge >= edges.length) {
        state[top.node] = 2;
        path.pop();
        continue;
      }
      const to = edges[top.edge++]!;
      if (state[to] === 1) {
        return { kind: "cycle", target: refs[to]!.target };
      }
      if (state[to] === 0) {
        state[to] = 1;
        path.push({ node: to, edge: 0 });
      }
    }
  }
  return null;
}
