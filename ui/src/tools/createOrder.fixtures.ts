// The demo server's `create_order` input schema (crates/demo-server/src/tools.rs), for tests:
// nested objects, an array of objects, enums, oneOf with const discriminators, $defs/$ref,
// defaults, patterns and formats.
import type { JsonValue } from "../bindings/serde_json/JsonValue";

export const createOrderSchema: JsonValue = {
  type: "object",
  $defs: {
    Address: {
      type: "object",
      description: "A postal address.",
      properties: {
        street: { type: "string", minLength: 1 },
        city: { type: "string", minLength: 1 },
        country: {
          type: "string",
          description: "ISO 3166-1 alpha-2 country code.",
          enum: ["US", "GB", "DE", "FR", "NL", "JP"],
        },
      },
      required: ["street", "city", "country"],
    },
  },
  properties: {
    customer: {
      type: "object",
      description: "Who the order is for.",
      properties: {
        name: { type: "string", minLength: 1 },
        email: { type: "string", format: "email" },
        address: { $ref: "#/$defs/Address" },
      },
      required: ["name", "email", "address"],
    },
    items: {
      type: "array",
      description: "The order lines.",
      minItems: 1,
      items: {
        type: "object",
        properties: {
          sku: { type: "string", description: "Stock keeping unit, e.g. ABC-1234.", pattern: "^[A-Z]{3}-[0-9]{4}$" },
          quantity: { type: "integer", minimum: 1, default: 1 },
        },
        required: ["sku"],
      },
    },
    payment: {
      description: "How the order is paid.",
      oneOf: [
        {
          type: "object",
          title: "Card",
          properties: {
            type: { type: "string", const: "card" },
            number: { type: "string", description: "Card number, digits only.", pattern: "^[0-9]{12,19}$" },
          },
          required: ["type", "number"],
        },
        {
          type: "object",
          title: "Invoice",
          properties: {
            type: { type: "string", const: "invoice" },
            po_number: { type: "string", description: "Purchase order number." },
          },
          required: ["type", "po_number"],
        },
      ],
    },
    priority: { type: "string", enum: ["low", "normal", "high"], default: "normal" },
    gift: { type: "boolean", description: "Gift-wrap the order.", default: false },
    notes: { type: "string", description: "Delivery notes for the courier.", maxLength: 500 },
  },
  required: ["customer", "items", "payment"],
};
