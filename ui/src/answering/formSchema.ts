// MCP form elicitation: the fields the engine read from the `requestedSchema` a server sends
// (views::elicitation: whatever is off is a note on its field), as a form shows them, checked
// by hand (no Ajv: the app's CSP forbids the run-time code generation it needs), and turned
// back into the JSON object to send.
import type { FieldNote } from "../bindings/FieldNote";
import type { FormField } from "../bindings/FormField";
import type { TextFormat } from "../bindings/TextFormat";
import i18n from "../i18n";
import type { JsonObject } from "../ipc";

export interface Option {
  value: string;
  label: string;
}

interface FieldBase {
  name: string;
  /** The property's `title`, else its name. */
  label: string;
  description: string | null;
  required: boolean;
  /** What the form could not honour in the property's schema (shown next to the field). */
  note: string | null;
}

export type TextKind = "text" | "email" | "uri" | "date" | "datetime";

export interface TextField extends FieldBase {
  kind: TextKind;
  constraints: { minLength?: number; maxLength?: number; pattern?: string };
  /** For `datetime`, the server's RFC 3339 string (the form shows it in local time). */
  default?: string;
}

export interface NumberField extends FieldBase {
  kind: "number" | "integer";
  constraints: { minimum?: number; maximum?: number };
  default?: number;
}

export interface BooleanField extends FieldBase {
  kind: "boolean";
  default?: boolean;
}

export interface SelectField extends FieldBase {
  kind: "select";
  options: Option[];
  default?: string;
}

export interface MultiSelectField extends FieldBase {
  kind: "multiselect";
  options: Option[];
  constraints: { minItems?: number; maxItems?: number };
  default?: string[];
}

export type Field = TextField | NumberField | BooleanField | SelectField | MultiSelectField;

/**
 * The form's state, by field name: the raw text of text, date and number inputs (numbers are
 * parsed only when sent), the chosen value of a select ("" for none), the checked state of a
 * boolean, the chosen values of a multi-select.
 */
export type FormValues = Record<string, string | boolean | string[]>;

const TEXT_KINDS: Record<TextFormat, TextKind> = { text: "text", email: "email", uri: "uri", date: "date", datetime: "datetime" };

/** What the form could not honour in a property's schema, in words. */
function noteText(note: FieldNote): string {
  switch (note.kind) {
    case "not_object":
      return i18n.t("answering:form.noteNotObject");
    case "type":
      return i18n.t("answering:form.noteType", { type: JSON.stringify(note.type ?? null) });
    case "format":
      return i18n.t("answering:form.noteFormat", { format: note.format });
  }
}

const defined = <T>(value: T | null): T | undefined => (value === null ? undefined : value);

/** The form's fields, from the fields the engine read from the `requestedSchema` (in order). */
export function fieldsOf(fields: FormField[]): Field[] {
  return fields.map((f): Field => {
    const base = {
      name: f.name,
      label: f.label,
      description: f.description,
      required: f.required,
      note: f.notes.length > 0 ? f.notes.map(noteText).join(" ") : null,
    };
    const field = f.field;
    switch (field.kind) {
      case "text":
        return {
          ...base,
          kind: TEXT_KINDS[field.format],
          constraints: { minLength: defined(field.min_length), maxLength: defined(field.max_length), pattern: defined(field.pattern) },
          default: defined(field.default),
        };
      case "number":
        return {
          ...base,
          kind: field.integer ? "integer" : "number",
          constraints: { minimum: defined(field.minimum), maximum: defined(field.maximum) },
          default: defined(field.default),
        };
      case "boolean":
        return { ...base, kind: "boolean", default: defined(field.default) };
      case "select":
        return { ...base, kind: "select", options: field.choices, default: defined(field.default) };
      case "multi_select":
        return {
          ...base,
          kind: "multiselect",
          options: field.choices,
          constraints: { minItems: defined(field.min_items), maxItems: defined(field.max_items) },
          default: defined(field.default),
        };
    }
  });
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** An RFC 3339 date-time as an `<input type="datetime-local">` value in local time ("" if unreadable). */
export function toLocalInput(rfc3339: string): string {
  if (!/^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}/.test(rfc3339)) return "";
  const date = new Date(rfc3339);
  if (Number.isNaN(date.getTime())) return "";
  const seconds = date.getSeconds() === 0 ? "" : `:${pad(date.getSeconds())}`;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}${seconds}`;
}

const LOCAL_DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;

/** The local time an `<input type="datetime-local">` value names, or null when it names none. */
function parseLocal(value: string): Date | null {
  const m = LOCAL_DATETIME.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute] = m.slice(1, 6).map(Number) as [number, number, number, number, number];
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const ms = m[7] === undefined ? 0 : Number(m[7].padEnd(3, "0"));
  if (hour > 23 || minute > 59 || second > 59) return null;
  const date = new Date(year, month - 1, day, hour, minute, second, ms);
  // new Date rolls 31 February over into March: refuse such dates.
  const real = date.getFullYear() === year && date.getMonth() === month - 1 && date.getDate() === day;
  return real ? date : null;
}

/**
 * An `<input type="datetime-local">` value as RFC 3339 with the local UTC offset ("Z" where it is
 * zero): "2025-03-01T09:30" → "2025-03-01T09:30:00+01:00". Returns null for a value that names no
 * real time.
 */
export function toRfc3339(local: string): string | null {
  const date = parseLocal(local);
  if (!date) return null;
  const ms = date.getMilliseconds() === 0 ? "" : `.${pad(date.getMilliseconds(), 3)}`;
  const offset = -date.getTimezoneOffset();
  const zone =
    offset === 0 ? "Z" : `${offset > 0 ? "+" : "-"}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}${ms}${zone}`
  );
}

function isDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The form's starting values: every default the server gave, else empty. */
export function initialValues(fields: Field[]): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    switch (field.kind) {
      case "boolean":
        values[field.name] = field.default ?? false;
        break;
      case "multiselect":
        values[field.name] = field.default ?? [];
        break;
      case "number":
      case "integer":
        values[field.name] = field.default === undefined ? "" : String(field.default);
        break;
      case "datetime":
        values[field.name] = field.default === undefined ? "" : toLocalInput(field.default);
        break;
      default:
        values[field.name] = field.default ?? "";
    }
  }
  return values;
}

function text(values: FormValues, name: string): string {
  const value = values[name];
  return typeof value === "string" ? value : "";
}

function list(values: FormValues, name: string): string[] {
  const value = values[name];
  return Array.isArray(value) ? value : [];
}

const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)*$/;

/** A user-supplied `pattern`, or null when JavaScript cannot read it. */
function regex(pattern: string): RegExp | null {
  try {
    return new RegExp(pattern, "u");
  } catch {
    try {
      return new RegExp(pattern);
    } catch {
      return null;
    }
  }
}

function checkText(field: TextField, value: string): string | null {
  const { minLength, maxLength, pattern } = field.constraints;
  const length = [...value].length;
  if (minLength !== undefined && length < minLength) return i18n.t("answering:form.minLength", { count: minLength });
  if (maxLength !== undefined && length > maxLength) return i18n.t("answering:form.maxLength", { count: maxLength });
  switch (field.kind) {
    case "email":
      if (!EMAIL.test(value)) return i18n.t("answering:form.email");
      break;
    case "uri":
      try {
        new URL(value);
      } catch {
        return i18n.t("answering:form.uri");
      }
      break;
    case "date":
      if (!isDate(value)) return i18n.t("answering:form.date");
      break;
    case "datetime":
      if (!parseLocal(value)) return i18n.t("answering:form.datetime");
      break;
    case "text":
      break;
  }
  if (pattern !== undefined) {
    const re = regex(pattern);
    if (re && !re.test(value)) return i18n.t("answering:form.pattern", { pattern });
  }
  return null;
}

function checkNumber(field: NumberField, raw: string): string | null {
  const value = Number(raw.trim());
  if (raw.trim() === "" || !Number.isFinite(value)) return i18n.t("answering:form.number");
  if (field.kind === "integer" && !Number.isInteger(value)) return i18n.t("answering:form.integer");
  const { minimum, maximum } = field.constraints;
  if (minimum !== undefined && value < minimum) return i18n.t("answering:form.minimum", { min: minimum });
  if (maximum !== undefined && value > maximum) return i18n.t("answering:form.maximum", { max: maximum });
  return null;
}

function checkMulti(field: MultiSelectField, chosen: string[]): string | null {
  const { maxItems } = field.constraints;
  // A required multi-select wants a choice, unless the schema explicitly allows none.
  const minItems = field.constraints.minItems ?? (field.required ? 1 : 0);
  if (chosen.length === 0 && minItems > 0 && field.required) return i18n.t("answering:form.chooseAtLeastOne");
  if (chosen.length > 0 && chosen.length < minItems) return i18n.t("answering:form.chooseAtLeast", { min: minItems });
  if (maxItems !== undefined && chosen.length > maxItems) return i18n.t("answering:form.chooseAtMost", { max: maxItems });
  const known = new Set(field.options.map((o) => o.value));
  if (chosen.some((c) => !known.has(c))) return i18n.t("answering:form.chooseAmong");
  return null;
}

/** A range of numbers in words ("18 to 99", "at least 1"), or null when unbounded. */
function range(low: number | undefined, high: number | undefined): string | null {
  if (low !== undefined && high !== undefined) {
    return low === high ? String(low) : i18n.t("answering:hint.between", { min: low, max: high });
  }
  if (low !== undefined) return i18n.t("answering:hint.atLeast", { min: low });
  if (high !== undefined) return i18n.t("answering:hint.atMost", { max: high });
  return null;
}

/** A range of lengths in characters ("2 to 5 characters", "at most 1 character"), or null. */
function lengths(low: number | undefined, high: number | undefined): string | null {
  if (low !== undefined && high !== undefined) {
    return low === high
      ? i18n.t("answering:hint.chars", { count: low })
      : i18n.t("answering:hint.charsBetween", { min: low, max: high });
  }
  if (low !== undefined) return i18n.t("answering:hint.charsAtLeast", { count: low });
  if (high !== undefined) return i18n.t("answering:hint.charsAtMost", { count: high });
  return null;
}

/** The field's constraints in words ("2 to 5 characters", "a whole number, at least 1"), or null. */
export function constraintHint(field: Field): string | null {
  switch (field.kind) {
    case "boolean":
    case "select":
      return null;
    case "multiselect": {
      const r = range(field.constraints.minItems, field.constraints.maxItems);
      return r && i18n.t("answering:hint.choose", { range: r });
    }
    case "number":
    case "integer": {
      const r = range(field.constraints.minimum, field.constraints.maximum);
      if (field.kind === "integer") {
        return r ? i18n.t("answering:hint.integerRange", { range: r }) : i18n.t("answering:hint.integer");
      }
      return r ? i18n.t("answering:hint.numberRange", { range: r }) : null;
    }
    default: {
      const parts: string[] = [];
      const r = lengths(field.constraints.minLength, field.constraints.maxLength);
      if (r) parts.push(r);
      if (field.constraints.pattern !== undefined) {
        parts.push(i18n.t("answering:hint.matching", { pattern: field.constraints.pattern }));
      }
      if (parts.length === 0) return null;
      const text = i18n.t("answering:hint.sentence", { text: parts.join(i18n.t("answering:hint.separator")) });
      return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
    }
  }
}

/** What is wrong with the values, by field name; empty when they may be sent. */
export function validate(fields: Field[], values: FormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of fields) {
    let error: string | null = null;
    switch (field.kind) {
      case "boolean":
        break;
      case "multiselect":
        error = checkMulti(field, list(values, field.name));
        break;
      case "select": {
        const value = text(values, field.name);
        if (value === "") error = field.required ? i18n.t("answering:form.chooseOne") : null;
        else if (!field.options.some((o) => o.value === value)) error = i18n.t("answering:form.chooseOneOf");
        break;
      }
      case "number":
      case "integer": {
        const value = text(values, field.name);
        if (value.trim() === "") error = field.required ? i18n.t("answering:form.required") : null;
        else error = checkNumber(field, value);
        break;
      }
      default: {
        const value = text(values, field.name);
        if (value === "") error = field.required ? i18n.t("answering:form.required") : null;
        else error = checkText(field, value);
      }
    }
    if (error !== null) errors[field.name] = error;
  }
  return errors;
}

/**
 * The object to send with "accept": optional fields left empty are left out, numbers are sent
 * as numbers, date-times as RFC 3339, booleans as booleans (a checkbox is always answered),
 * multi-selects as arrays in the order of their options. Call it on values `validate` accepts.
 */
export function toContent(fields: Field[], values: FormValues): JsonObject {
  const content: JsonObject = {};
  for (const field of fields) {
    switch (field.kind) {
      case "boolean":
        content[field.name] = values[field.name] === true;
        break;
      case "multiselect": {
        const chosen = new Set(list(values, field.name));
        if (chosen.size === 0 && !field.required) break;
        content[field.name] = field.options.map((o) => o.value).filter((v) => chosen.has(v));
        break;
      }
      case "number":
      case "integer": {
        const value = text(values, field.name).trim();
        if (value !== "") content[field.name] = Number(value);
        break;
      }
      case "datetime": {
        const value = text(values, field.name);
        if (value !== "") content[field.name] = toRfc3339(value) ?? value;
        break;
      }
      default: {
        const value = text(values, field.name);
        if (value !== "") content[field.name] = value;
      }
    }
  }
  return content;
}
