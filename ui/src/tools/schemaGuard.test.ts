import { describe, expect, it } from "vitest";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { createOrderSchema } from "./createOrder.fixtures";
import { GUARD_LIMITS, guardSchema } from "./schemaGuard";

function nested(levels: number): JsonValue {
  let schema: JsonValue = { type: "string" };
  for (let i = 0; i < levels; i++) schema = { type: "object", properties: { a: schema } };
  return schema;
}

describe("guardSchema", () => {
  it("lets ordinary schemas through", () => {
    expect(guardSchema(createOrderSchema)).toBeNull();
    expect(guardSchema(undefined)).toBeNull();
    expect(guardSchema({ type: "object" })).toBeNull();
    expect(guardSchema(nested(20))).toBeNull();
    // Two refs to one definition, and a ref to a sibling definition, are not cycles.
    expect(
      guardSchema({
        $defs: { A: { type: "string" }, B: { properties: { a: { $ref: "#/$defs/A" } } } },
        properties: { x: { $ref: "#/$defs/A" }, y: { $ref: "#/$defs/B" } },
      }),
    ).toBeNull();
    // A property named "$ref" is not a reference.
    expect(guardSchema({ properties: { $ref: { type: "string" } } })).toBeNull();
  });

  it("refuses deep nesting, without recursing itself", () => {
    expect(guardSchema(nested(100))).toMatch(/nested more than 64 levels/);
    expect(guardSchema(nested(100_000))).toMatch(/nested more than/);
  });

  it("refuses a 100 000-value enum and a huge oneOf", () => {
    const values = Array.from({ length: 100_000 }, (_, i) => i);
    expect(guardSchema({ properties: { pick: { enum: values } } })).toMatch(/enum at \/properties\/pick\/enum has 100,000 entries/);
    const options = Array.from({ length: GUARD_LIMITS.maxChoices + 1 }, (_, i) => ({ const: i }));
    expect(guardSchema({ oneOf: options })).toMatch(/oneOf at \/oneOf has 1,001 entries/);
  });

  it("refuses too many values or too much text", () => {
    const properties: Record<string, JsonValue> = {};
    for (let i = 0; i < 12_000; i++) properties[`p${i}`] = { type: "string" };
    expect(guardSchema({ properties })).toMatch(/more than 20,000 values/);
    expect(guardSchema({ description: "x".repeat(2_000_000) })).toMatch(/larger than/);
  });

  it("refuses cyclic $refs: to the root, to its own parent, between definitions", () => {
    expect(guardSchema({ $ref: "#" })).toMatch(/refers to itself/);
    expect(guardSchema({ type: "object", properties: { child: { $ref: "#" } } })).toMatch(/refers to itself/);
    expect(
      guardSchema({ $defs: { A: { $ref: "#/$defs/B" }, B: { $ref: "#/$defs/A" } }, properties: { x: { $ref: "#/$defs/A" } } }),
    ).toMatch(/refers to itself/);
    expect(
      guardSchema({
        $defs: { Node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/Node" } } } } },
        $ref: "#/$defs/Node",
      }),
    ).toMatch(/refers to itself/);
    // JSON-pointer escapes in definition names.
    expect(guardSchema({ $defs: { "a/b": { $ref: "#/$defs/a~1b" } } })).toMatch(/refers to itself/);
  });
});
