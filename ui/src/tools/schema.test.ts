import { customizeValidator } from "@rjsf/validator-ajv8";
import { describe, expect, it } from "vitest";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { createOrderSchema } from "./createOrderSchema";
import { evalAllowed, parseArguments, prepareSchema } from "./schema";

const validOrder = {
  customer: { name: "Ada", email: "ada@example.com", address: { street: "1 Main St", city: "Springfield", country: "US" } },
  items: [{ sku: "ABC-1234", quantity: 2 }],
  payment: { type: "card", number: "4111111111111111" },
};

describe("prepareSchema", () => {
  it("can validate create_order ($defs/$ref, oneOf, enums, patterns)", () => {
    const validator = customizeValidator();
    const prepared = prepareSchema(createOrderSchema, validator);
    expect(prepared.canValidate).toBe(true);
    expect(prepared.notes).toEqual([]);
    expect(validator.isValid(prepared.schema, validOrder, prepared.schema)).toBe(true);
    const badSku = { ...validOrder, items: [{ sku: "abc" }] };
    expect(validator.isValid(prepared.schema, badSku, prepared.schema)).toBe(false);
    const badCountry = {
      ...validOrder,
      customer: { ...validOrder.customer, address: { ...validOrder.customer.address, country: "XX" } },
    };
    expect(validator.isValid(prepared.schema, badCountry, prepared.schema)).toBe(false);
  });

  it("drops a 2020-12 $schema the draft-07 validator cannot load", () => {
    const validator = customizeValidator();
    const input = { $schema: "https://json-schema.org/draft/2020-12/schema", ...(createOrderSchema as object) };
    const prepared = prepareSchema(input, validator);
    expect(prepared.schema.$schema).toBeUndefined();
    expect(prepared.canValidate).toBe(true);
    expect(input.$schema).toBe("https://json-schema.org/draft/2020-12/schema"); // the tool's own copy is untouched
  });

  it("falls back to no validation, saying why, for a schema the validator cannot compile", () => {
    const prepared = prepareSchema(
      { type: "object", properties: { a: { type: "strange" } } },
      customizeValidator(),
    );
    expect(prepared.canValidate).toBe(false);
    expect(prepared.notes[0]).toMatch(/cannot be validated here \(.+\); arguments are sent as entered/);
  });

  it("treats a missing or non-object inputSchema as an open object", () => {
    const inputs: Array<JsonValue | undefined> = [undefined, null, "object", [1]];
    for (const input of inputs) {
      const prepared = prepareSchema(input, customizeValidator());
      expect(prepared.schema).toEqual({ type: "object" });
      expect(prepared.notes[0]).toMatch(/no usable inputSchema/);
    }
  });

  it("adds the object type to a schema that only lists properties", () => {
    const prepared = prepareSchema({ properties: { a: { type: "number" } } }, customizeValidator());
    expect(prepared.schema.type).toBe("object");
  });

  it("knows the test environment allows the validator's code generation", () => {
    expect(evalAllowed()).toBe(true);
  });
});

describe("parseArguments", () => {
  it("accepts a JSON object, or nothing", () => {
    expect(parseArguments('{"a": 2, "b": 40}')).toEqual({ args: { a: 2, b: 40 } });
    expect(parseArguments("  ")).toEqual({ args: {} });
  });

  it("says why other text is refused", () => {
    expect(parseArguments("[1]")).toEqual({ error: 'The arguments must be a JSON object, like {"a": 1}.' });
    expect(parseArguments("{a: 1}")).toMatchObject({ error: expect.stringMatching(/^The arguments are not valid JSON: /) });
  });
});
