// RFC 6570 URI templates (levels 1–4) for resource templates: which variables a template has,
// and the URI it expands to. Values are strings (a form's fields); an empty value counts as
// undefined, so `{?q,page}` with only `q` filled gives `?q=…`.
import i18n from "../i18n";

export type Operator = "" | "+" | "#" | "." | "/" | ";" | "?" | "&";

export interface VarSpec {
  name: string;
  /** `{var:3}`: only the first 3 characters. */
  prefix: number | null;
  /** `{var*}`. */
  explode: boolean;
}

export type TemplatePart = { literal: string } | { operator: Operator; variables: VarSpec[] };

export interface TemplateVariable {
  name: string;
  /** The operator of the first expression naming it: "" (simple), "+", "/", "?", … */
  operator: Operator;
}

const OPERATORS = new Set(["+", "#", ".", "/", ";", "?", "&"]);
const RESERVED_OPERATORS = new Set(["=", ",", "!", "@", "|"]);
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;

export class TemplateError extends Error {}

/** Splits a template into literals and expressions; throws a TemplateError saying what is wrong. */
export function parseTemplate(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let index = 0;
  while (index < template.length) {
    const open = template.indexOf("{", index);
    const close = template.indexOf("}", index);
    if (close !== -1 && (open === -1 || close < open)) {
      throw new TemplateError(i18n.t("resources:template.error.strayClose", { at: close }));
    }
    if (open === -1) {
      parts.push({ literal: template.slice(index) });
      break;
    }
    if (open > index) parts.push({ literal: template.slice(index, open) });
    const end = template.indexOf("}", open);
    if (end === -1) throw new TemplateError(i18n.t("resources:template.error.notClosed", { at: open }));
    const body = template.slice(open + 1, end);
    if (body.includes("{")) throw new TemplateError(i18n.t("resources:template.error.notClosed", { at: open }));
    parts.push(parseExpression(body, open));
    index = end + 1;
  }
  return parts;
}

function parseExpression(body: string, at: number): TemplatePart {
  let operator: Operator = "";
  let list = body;
  const first = body.charAt(0);
  if (OPERATORS.has(first)) {
    operator = first as Operator;
    list = body.slice(1);
  } else if (RESERVED_OPERATORS.has(first)) {
    throw new TemplateError(i18n.t("resources:template.error.reserved", { operator: first, at }));
  }
  if (list === "") throw new TemplateError(i18n.t("resources:template.error.noVariable", { at }));
  const variables = list.split(",").map((spec): VarSpec => {
    let name = spec;
    let prefix: number | null = null;
    let explode = false;
    if (name.endsWith("*")) {
      explode = true;
      name = name.slice(0, -1);
    } else {
      const colon = name.indexOf(":");
      if (colon !== -1) {
        const digits = name.slice(colon + 1);
        if (!/^[1-9][0-9]{0,3}$/.test(digits)) {
          throw new TemplateError(i18n.t("resources:template.error.prefix", { spec, at }));
        }
        prefix = Number(digits);
        name = name.slice(0, colon);
      }
    }
    if (!VARNAME.test(name)) throw new TemplateError(i18n.t("resources:template.error.variableName", { spec, at }));
    return { name, prefix, explode };
  });
  return { operator, variables };
}

/** The template's variables, each once, in order of first appearance. */
export function templateVariables(template: string): TemplateVariable[] {
  const seen = new Map<string, TemplateVariable>();
  for (const part of parseTemplate(template)) {
    if ("literal" in part) continue;
    for (const v of part.variables) {
      if (!seen.has(v.name)) seen.set(v.name, { name: v.name, operator: part.operator });
    }
  }
  return [...seen.values()];
}

interface OperatorRule {
  first: string;
  separator: string;
  named: boolean;
  ifEmpty: string;
  allowReserved: boolean;
}

const RULES: Record<Operator, OperatorRule> = {
  "": { first: "", separator: ",", named: false, ifEmpty: "", allowReserved: false },
  "+": { first: "", separator: ",", named: false, ifEmpty: "", allowReserved: true },
  "#": { first: "#", separator: ",", named: false, ifEmpty: "", allowReserved: true },
  ".": { first: ".", separator: ".", named: false, ifEmpty: "", allowReserved: false },
  "/": { first: "/", separator: "/", named: false, ifEmpty: "", allowReserved: false },
  ";": { first: ";", separator: ";", named: true, ifEmpty: "", allowReserved: false },
  "?": { first: "?", separator: "&", named: true, ifEmpty: "=", allowReserved: false },
  "&": { first: "&", separator: "&", named: true, ifEmpty: "=", allowReserved: false },
};

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

/** Percent-encodes (UTF-8) what may not appear as is; `+`/`#` also keep reserved characters and `%XX`. */
export function encodeValue(value: string, allowReserved: boolean): string {
  let out = "";
  const chars = Array.from(value);
  for (let i = 0; i < chars.length; i += 1) {
    const c = chars[i]!;
    if (UNRESERVED.test(c)) {
      out += c;
    } else if (allowReserved && RESERVED.test(c)) {
      out += c;
    } else if (allowReserved && c === "%" && /^[0-9A-Fa-f]{2}$/.test((chars[i + 1] ?? "") + (chars[i + 2] ?? ""))) {
      out += c;
    } else {
      for (const byte of new TextEncoder().encode(c)) out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    }
  }
  return out;
}

/** Expands a template with string values; empty or missing values are left out. */
export function expandTemplate(template: string, values: Record<string, string>): string {
  return parseTemplate(template)
    .map((part) => {
      if ("literal" in part) return encodeValue(part.literal, true);
      const rule = RULES[part.operator];
      const pieces: string[] = [];
      for (const v of part.variables) {
        const raw = values[v.name];
        if (raw === undefined || raw === "") continue;
        const value = encodeValue(v.prefix === null ? raw : Array.from(raw).slice(0, v.prefix).join(""), rule.allowReserved);
        pieces.push(rule.named ? `${v.name}${value === "" ? rule.ifEmpty : `=${value}`}` : value);
      }
      return pieces.length === 0 ? "" : rule.first + pieces.join(rule.separator);
    })
    .join("");
}
