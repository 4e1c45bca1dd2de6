import { describe, expect, it } from "vitest";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { createOrderSchema } from "./createOrder.fixtures";
import { describeGuard, GUARD_LIMITS, guardReason } from "./schemaGuard";

function nested(levels: number): JsonValue {
  let schema: JsonValue = { type: "string" };
  for (let i = 0; i < levels; i++) schema = { type: "object", properties: { a: schema } };
  return schema;
}

/** The guard as the Tools tab meets it: why a schema is refused, in words, or null. */
function refusal(schema: JsonValue | undefined): string | null {
  const reason = guardReason(schema);
  return reason === null ? null : describeGuard(reason);
}

describe("the schema guard", () => {
  it("lets ordinary schemas through", () => {
    expect(refusal(createOrderSchema)).toBeNull();
    expect(refusal(undefined)).toBeNull();
    expect(refusal({ type: "object" })).toBeNull();
    expect(refusal(nested(20))).toBeNull();
    // Two refs to one definition, and a ref to a sibling definition, are not cycles.
    expect(
      refusal({
        $defs: { A: { type: "string" }, B: { properties: { a: { $ref: "#/$defs/A" } } } },
        properties: { x: { $ref: "#/$defs/A" }, y: { $ref: "#/$defs/B" } },
      }),
    ).toBeNull();
    // A property named "$ref" is not a reference.
    expect(refusal({ properties: { $ref: { type: "string" } } })).toBeNull();
  });

  it("refuses deep nesting, without recursing itself", () => {
    expect(refusal(nested(100))).toMatch(/nested more than 64 levels/);
    expect(refusal(nested(100_000))).toMatch(/nested more than/);
  });

  it("refuses a 100 000-value enum and a huge oneOf", () => {
    const values = Array.from({ length: 100_000 }, (_, i) => i);
    expect(refusal({ properties: { pick: { enum: values } } })).toMatch(/enum at \/properties\/pick\/enum has 100,000 entries/);
    const options = Array.from({ length: GUARD_LIMITS.maxChoices + 1 }, (_, i) => ({ const: i }));
    expect(refusal({ oneOf: options })).toMatch(/oneOf at \/oneOf has 1,001 entries/);
  });

  it("refuses too many values or too much text", () => {
    const properties: Record<string, JsonValue> = {};
    for (let i = 0; i < 12_000; i++) properties[`p${i}`] = { type: "string" };
    expect(refusal({ properties })).toMatch(/more than 20,000 values/);
    expect(refusal({ description: "x".repeat(2_000_000) })).toMatch(/larger than/);
  });

  it("refuses cyclic $refs: to the root, to its own parent, between definitions", () => {
    expect(refusal({ $ref: "#" })).toMatch(/refers to itself/);
    expect(refusal({ type: "object", properties: { child: { $ref: "#" } } })).toMatch(/refers to itself/);
    expect(
      refusal({ $defs: { A: { $ref: "#/$defs/B" }, B: { $ref: "#/$defs/A" } }, properties: { x: { $ref: "#/$defs/A" } } }),
    ).toMatch(/refers to itself/);
    expect(
      refusal({
        $defs: { Node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/Node" } } } } },
        $ref: "#/$defs/Node",
      }),
    ).toMatch(/refers to itself/);
    // JSON-pointer escapes in definition names.
    expect(refusal({ $defs: { "a/b": { $ref: "#/$defs/a~1b" } } })).toMatch(/refers to itself/);
  });
});
