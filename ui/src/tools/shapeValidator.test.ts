import { describe, expect, it } from "vitest";
import { createOrderSchema } from "./createOrder.fixtures";
import { fits, shapeValidator } from "./shapeValidator";

const root = createOrderSchema as Record<string, unknown>;
const properties = root["properties"] as Record<string, Record<string, unknown>>;
const payment = properties["payment"]!;
const [card, invoice] = payment["oneOf"] as unknown[];

describe("shapeValidator (for when the CSP forbids Ajv's code generation)", () => {
  it("tells which oneOf option data belongs to, by const discriminator", () => {
    expect(fits(card, { type: "card", number: "4111" }, root)).toBe(true);
    expect(fits(invoice, { type: "card", number: "4111" }, root)).toBe(false);
    expect(fits(invoice, { type: "invoice", po_number: "PO-1" }, root)).toBe(true);
    expect(fits(payment, { type: "invoice", po_number: "PO-1" }, root)).toBe(true);
    expect(fits(payment, { type: "cash" }, root)).toBe(false);
  });

  it("follows $ref into $defs and checks enums, types and required", () => {
    const customer = properties["customer"]!;
    const address = { street: "1 Main St", city: "Springfield", country: "US" };
    expect(fits(customer, { name: "Ada", email: "a@b.c", address }, root)).toBe(true);
    expect(fits(customer, { name: "Ada", email: "a@b.c", address: { ...address, country: "XX" } }, root)).toBe(false);
    expect(fits(customer, { name: "Ada", address }, root)).toBe(false);
    expect(fits(properties["items"], [{ sku: "ABC-1234", quantity: 1.5 }], root)).toBe(false);
    expect(fits(properties["items"], [{ sku: "ABC-1234", quantity: 2 }], root)).toBe(true);
  });

  it("reports no errors and never throws", () => {
    expect(shapeValidator.validateFormData({}, root)).toEqual({ errors: [], errorSchema: {} });
    expect(shapeValidator.rawValidation(root, {})).toEqual({ errors: [], validationError: undefined });
    expect(shapeValidator.isValid({ $ref: "#/nowhere" }, 1, root)).toBe(true);
  });
});
