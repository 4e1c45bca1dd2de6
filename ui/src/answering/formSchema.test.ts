import { afterEach, describe, expect, it, vi } from "vitest";
import type { FormField } from "../bindings/FormField";
import forms from "./fixtures/forms.json";
import { constraintHint, fieldsOf, initialValues, toContent, toLocalInput, toRfc3339, validate, type Field } from "./formSchema";

// Node reads TZ afresh whenever it changes.
afterEach(() => {
  vi.unstubAllEnvs();
});

// The fields the engine reads from each schema (views::elicitation checks this file).
const read = (name: keyof typeof forms) => fieldsOf(forms[name].fields as FormField[]);
const everyKind = () => read("every_kind");

const byName = (fields: Field[], name: string) => fields.find((f) => f.name === name)!;

describe("fieldsOf", () => {
  const fields = everyKind();

  it("reads every kind of field, in order", () => {
    expect(fields.map((f) => [f.name, f.kind])).toEqual([
      ["name", "text"],
      ["email", "email"],
      ["site", "uri"],
      ["born", "date"],
      ["meeting", "datetime"],
      ["code", "text"],
      ["age", "integer"],
      ["ratio", "number"],
      ["agree", "boolean"],
      ["colour", "select"],
      ["size", "select"],
      ["tags", "multiselect"],
      ["pets", "multiselect"],
    ]);
  });

  it("reads labels, descriptions, required and constraints", () => {
    expect(byName(fields, "name")).toMatchObject({
      label: "Your name",
      description: "As on your passport",
      required: true,
      constraints: { minLength: 2, maxLength: 5 },
    });
    expect(byName(fields, "email")).toMatchObject({ label: "email", description: null, required: true });
    expect(byName(fields, "age")).toMatchObject({ constraints: { minimum: 18, maximum: 99 }, default: 30 });
    expect(byName(fields, "tags")).toMatchObject({ constraints: { minItems: 1, maxItems: 2 }, default: ["b"] });
  });

  it("reads options from enum + enumNames, oneOf and items.anyOf", () => {
    expect(byName(fields, "colour")).toMatchObject({
      options: [
        { value: "r", label: "Red" },
        { value: "g", label: "Green" },
      ],
    });
    expect(byName(fields, "size")).toMatchObject({
      options: [
        { value: "s", label: "Small" },
        { value: "l", label: "Large" },
      ],
    });
    expect(byName(fields, "tags")).toMatchObject({
      options: [
        { value: "a", label: "a" },
        { value: "b", label: "b" },
        { value: "c", label: "c" },
      ],
    });
    expect(byName(fields, "pets")).toMatchObject({
      options: [
        { value: "cat", label: "Cat" },
        { value: "dog", label: "Dog" },
      ],
    });
  });

  it("never throws on a malformed schema", () => {
    // null, "nope" and {type: "object"} give no fields: views::elicitation's tests.
    const odd = read("odd");
    expect(odd.map((f) => f.kind)).toEqual(["text", "text"]);
    expect(odd[0]!.note).toMatch(/not an object/);
    expect(odd[1]!.note).toMatch(/type "object"/);
  });
});

describe("constraintHint", () => {
  it("puts constraints in words", () => {
    const fields = everyKind();
    const hint = (name: string) => constraintHint(byName(fields, name));
    expect(hint("name")).toBe("2 to 5 characters.");
    expect(hint("code")).toBe("Matching ^[A-Z]{3}$.");
    expect(hint("age")).toBe("A whole number, 18 to 99.");
    expect(hint("ratio")).toBe("A number, 0 to 1.");
    expect(hint("tags")).toBe("Choose 1 to 2.");
    expect(hint("email")).toBeNull();
    expect(hint("agree")).toBeNull();
  });
});

describe("initialValues", () => {
  it("pre-fills every default and leaves the rest empty", () => {
    const fields = everyKind();
    expect(initialValues(fields)).toEqual({
      name: "",
      email: "",
      site: "",
      born: "",
      meeting: "",
      code: "",
      age: "30",
      ratio: "",
      agree: true,
      colour: "g",
      size: "",
      tags: ["b"],
      pets: [],
    });
  });

  it("shows a date-time default in local time", () => {
    vi.stubEnv("TZ", "Asia/Kolkata");
    const fields = read("at_default");
    expect(initialValues(fields)).toEqual({ at: "2025-03-01T09:30" });
    expect(toLocalInput("not a date")).toBe("");
  });
});

describe("validate", () => {
  const fields = everyKind();
  const good = { ...initialValues(fields), name: "Ann", email: "ann@example.com" };

  it("accepts good values", () => {
    expect(validate(fields, good)).toEqual({});
  });

  it("says what is required", () => {
    const errors = validate(fields, { ...good, name: "", email: "", tags: [] });
    expect(errors).toEqual({
      name: "This field is required.",
      email: "This field is required.",
      tags: "Choose at least one.",
    });
  });

  it("checks lengths, pattern, email, uri and dates", () => {
    const errors = validate(fields, {
      ...good,
      name: "A",
      email: "ann@",
      site: "example.com",
      born: "2025-02-30",
      meeting: "2025-13-01T10:00",
      code: "abc",
    });
    expect(errors).toEqual({
      name: "Enter at least 2 characters.",
      email: expect.stringMatching(/email address/),
      site: expect.stringMatching(/scheme/),
      born: "Enter a date as YYYY-MM-DD.",
      meeting: "Enter a date and time.",
      code: "Must match the pattern ^[A-Z]{3}$",
    });
    expect(validate(fields, { ...good, name: "Annabel" })).toEqual({ name: "Enter at most 5 characters." });
    expect(validate(fields, { ...good, site: "mailto:ann@example.com", born: "2024-02-29", code: "ABC" })).toEqual({});
  });

  it("counts characters, not UTF-16 units", () => {
    expect(validate(fields, { ...good, name: "😀😀" })).toEqual({});
  });

  it("checks numbers, integers and ranges", () => {
    expect(validate(fields, { ...good, age: "17" })).toEqual({ age: "Enter 18 or more." });
    expect(validate(fields, { ...good, age: "100" })).toEqual({ age: "Enter 99 or less." });
    expect(validate(fields, { ...good, age: "20.5" })).toEqual({ age: "Enter a whole number." });
    expect(validate(fields, { ...good, ratio: "x" })).toEqual({ ratio: "Enter a number." });
    expect(validate(fields, { ...good, ratio: "1.5" })).toEqual({ ratio: "Enter 1 or less." });
    expect(validate(fields, { ...good, age: "" })).toEqual({});
  });

  it("checks how many items are chosen", () => {
    expect(validate(fields, { ...good, tags: ["a", "b", "c"] })).toEqual({ tags: "Choose at most 2." });
    expect(validate(fields, { ...good, tags: ["z"] })).toEqual({ tags: "Choose only among the options." });
  });

  it("ignores a pattern JavaScript cannot read", () => {
    const f = read("bad_pattern");
    expect(validate(f, { a: "anything" })).toEqual({});
  });
});

describe("toContent", () => {
  const fields = everyKind();

  it("sends typed values and leaves out optional fields left empty", () => {
    const values = { ...initialValues(fields), name: "Ann", email: "ann@example.com", tags: ["c", "a"] };
    expect(toContent(fields, values)).toEqual({
      name: "Ann",
      email: "ann@example.com",
      age: 30,
      agree: true,
      colour: "g",
      tags: ["a", "c"],
    });
  });

  it("sends numbers as numbers and unchecked booleans as false", () => {
    const values = { ...initialValues(fields), name: "Ann", email: "a@b.c", ratio: "0.25", agree: false, pets: ["dog"] };
    expect(toContent(fields, values)).toMatchObject({ ratio: 0.25, agree: false, pets: ["dog"] });
  });

  it("sends a date-time as RFC 3339 with the local offset", () => {
    const f = read("at");
    vi.stubEnv("TZ", "Asia/Kolkata");
    expect(toContent(f, { at: "2025-03-01T09:30" })).toEqual({ at: "2025-03-01T09:30:00+05:30" });
    vi.stubEnv("TZ", "America/St_Johns");
    expect(toRfc3339("2025-01-15T23:05:07")).toBe("2025-01-15T23:05:07-03:30");
    vi.stubEnv("TZ", "UTC");
    expect(toRfc3339("2025-03-01T09:30:00.5")).toBe("2025-03-01T09:30:00.500Z");
    expect(toRfc3339("2025-02-30T09:30")).toBeNull();
  });
});
