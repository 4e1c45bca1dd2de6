import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { createOrderSchema } from "./createOrderSchema";
import { ToolForm } from "./ToolForm";

afterEach(cleanup);

function renderForm(inputSchema: JsonValue | undefined, formData?: JsonValue) {
  const onCall = vi.fn();
  const onChange = vi.fn();
  render(
    <ToolForm
      toolName="t"
      inputSchema={inputSchema}
      formData={formData}
      running={false}
      onChange={onChange}
      onCall={onCall}
    />,
  );
  return { onCall, onChange };
}

describe("ToolForm", () => {
  it("generates a form for create_order: nested objects, arrays, enums, oneOf, $ref", () => {
    renderForm(createOrderSchema);
    expect(screen.getByText("customer")).toBeTruthy();
    expect(screen.getByText("street")).toBeTruthy(); // from #/$defs/Address
    expect(screen.getByText("sku")).toBeTruthy(); // the array's first item (minItems 1)
    expect(screen.getByRole("option", { name: "JP" })).toBeTruthy(); // enum
    expect(screen.getByRole("option", { name: "Invoice" })).toBeTruthy(); // oneOf choice
    expect(screen.getByTestId("call-tool-button")).toBeTruthy();
  });

  it("does not call with arguments the schema rejects", () => {
    const { onCall } = renderForm(createOrderSchema);
    fireEvent.click(screen.getByTestId("call-tool-button"));
    expect(onCall).not.toHaveBeenCalled();
  });

  it("calls with the form's data, defaults included", () => {
    const { onCall } = renderForm({
      type: "object",
      properties: {
        a: { type: "number", default: 2 },
        mode: { type: "string", enum: ["fast", "slow"], default: "slow" },
      },
    });
    fireEvent.click(screen.getByTestId("call-tool-button"));
    expect(onCall).toHaveBeenCalledWith({ a: 2, mode: "slow" });
  });

  it("still offers a form, unvalidated, for a schema the validator refuses", () => {
    const { onCall } = renderForm({ type: "object", properties: { a: { type: "string", format: 3 } } }, { a: "x" });
    expect(screen.getByText(/cannot be validated here/)).toBeTruthy();
    fireEvent.click(screen.getByTestId("call-tool-button"));
    expect(onCall).toHaveBeenCalledWith({ a: "x" });
  });

  it("takes raw JSON arguments and says when they are not an object", () => {
    const { onCall } = renderForm({ type: "object" });
    fireEvent.click(screen.getByRole("button", { name: "JSON" }));
    const editor = screen.getByLabelText("Arguments as JSON");
    fireEvent.change(editor, { target: { value: "[1, 2]" } });
    fireEvent.click(screen.getByTestId("call-tool-button"));
    expect(screen.getByRole("alert").textContent).toContain("must be a JSON object");
    fireEvent.change(editor, { target: { value: '{"x": [1, 2]}' } });
    fireEvent.click(screen.getByTestId("call-tool-button"));
    expect(onCall).toHaveBeenCalledWith({ x: [1, 2] });
  });
});
