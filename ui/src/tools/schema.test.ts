import { describe, expect, it } from "vitest";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { createOrderSchema } from "./createOrder.fixtures";
import { parseArguments, prepareSchema, schemaForCheck } from "./schema";
import { fits } from "./shapeValidator";

const validOrder = {
  customer: { name: "Ada", email: "ada@example.com", address: { street: "1 Main St", city: "Springfield", country: "US" } },
  items: [{ sku: "ABC-1234", quantity: 2 }],
  payment: { type: "card", number: "4111111111111111" },
};

describe("prepareSchema", () => {
  it("keeps create_order as it is ($defs/$ref, oneOf, enums)", () => {
    const prepared = prepareSchema(createOrderSchema);
    expect(prepared.notes).toEqual([]);
    expect(prepared.schema).toEqual(createOrderSchema);
    // The form's option matcher tells the oneOf choices apart by their const.
    const payment = (createOrderSchema as { properties: { payment: JsonValue } }).properties.payment;
    expect(fits(payment, validOrder.payment, createOrderSchema)).toBe(true);
    expect(fits(payment, { type: "invoice", po_number: "7" }, createOrderSchema)).toBe(true);
    expect(fits(payment, { type: "cash" }, createOrderSchema)).toBe(false);
  });

  it("drops $schema for the form and leaves the tool's own copy alone", () => {
    const input = { $schema: "https://json-schema.org/draft/2020-12/schema", ...(createOrderSchema as object) };
    const prepared = prepareSchema(input);
    expect(prepared.schema.$schema).toBeUndefined();
    expect(input.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schemaForCheck(input)).toBe(input);
  });

  it("treats a missing or non-object inputSchema as an open object", () => {
    const inputs: Array<JsonValue | undefined> = [undefined, null, "object", [1]];
    for (const input of inputs) {
      const prepared = prepareSchema(input);
      expect(prepared.schema).toEqual({ type: "object" });
      expect(prepared.notes[0]).toMatch(/no usable inputSchema/);
      expect(schemaForCheck(input)).toEqual({ type: "object" });
    }
  });

  it("adds the object type to a schema that only lists properties", () => {
    const prepared = prepareSchema({ properties: { a: { type: "number" } } });
    expect(prepared.schema.type).toBe("object");
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
