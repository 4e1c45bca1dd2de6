import { EditorView } from "@codemirror/view";
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SchemaReport } from "../bindings/SchemaReport";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { applyLanguage } from "../i18n";
import { createOrderSchema } from "./createOrder.fixtures";
import { ToolForm } from "./ToolForm";
import type { Validate } from "./validation";

afterEach(cleanup);

function renderForm(inputSchema: JsonValue | undefined, formData?: JsonValue, validate: Validate | null = null) {
  const onCall = vi.fn();
  const onChange = vi.fn();
  const view = render(
    <ToolForm
      toolName="t"
      inputSchema={inputSchema}
      formData={formData}
      running={false}
      onChange={onChange}
      onCall={onCall}
      validate={validate}
    />,
  );
  return { onCall, onChange, view };
}

/** Replaces the CodeMirror document, as typing would. */
function typeJson(text: string) {
  const content = screen.getByTestId("json-editor");
  const editor = EditorView.findFromDOM(content);
  if (!editor) throw new Error("no CodeMirror view");
  act(() => {
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: text } });
  });
}

describe("ToolForm", () => {
  it("generates a form for create_order: nested objects, arrays, enums, oneOf, $ref", () => {
    renderForm(createOrderSchema);
    expect(screen.getByText("customer")).toBeTruthy();
    expect(screen.getByText("street")).toBeTruthy(); // from #/$defs/Address
    expect(screen.getByText("sku")).toBeTruthy(); // the array's first item (minItems 1)
    expect(screen.getByRole("option", { name: "JP" })).toBeTruthy(); // enum
    expect(screen.getByRole("option", { name: "Invoice" })).toBeTruthy(); // oneOf choice
    expect(screen.getByText("Who the order is for.")).toBeTruthy(); // description as help
    expect(screen.getByTestId("call-tool-button")).toBeTruthy();
  });

  it("renders nullable types, const and allOf without falling back", () => {
    renderForm({
      type: "object",
      properties: {
        nickname: { type: ["string", "null"], description: "May be null." },
        version: { const: 2 },
        both: { allOf: [{ type: "object", properties: { a: { type: "string" } } }, { properties: { b: { type: "integer" } } }] },
      },
    });
    expect(screen.queryByTestId("schema-fallback")).toBeNull();
    expect(screen.getByText("nickname")).toBeTruthy();
    expect(screen.getByText("May be null.")).toBeTruthy();
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

  it("shows the validator's issues as warnings and still calls, with the button saying so", async () => {
    // A stand-in for the Rust validator (validate_json): the display is under test here; the
    // validator itself is tested in schema_check.rs and end to end in e2e_tools.rs.
    const report: SchemaReport = {
      valid: false,
      issues: [{ path: "/items/0/sku", message: '"abc" does not match "^[A-Z]{3}-[0-9]{4}$"' }],
      schema_error: null,
    };
    const validate = vi.fn<Validate>(() => Promise.resolve(report));
    const { onCall } = renderForm(createOrderSchema, { items: [{ sku: "abc" }] }, validate);
    const verdict = await screen.findByTestId("args-verdict", undefined, { timeout: 2000 });
    await waitFor(() => expect(verdict.dataset["verdict"]).toBe("invalid"));
    expect(verdict.textContent).toContain("/items/0/sku");
    expect(verdict.textContent).toContain("You can still send them");
    expect(validate).toHaveBeenCalledWith(createOrderSchema, { items: [{ sku: "abc" }] });
    const button = screen.getByTestId("call-tool-button") as HTMLButtonElement;
    expect(button.textContent).toBe("Call anyway");
    expect(button.disabled).toBe(false);
    fireEvent.click(button);
    expect(onCall).toHaveBeenCalledTimes(1);
  });

  it("says when the schema itself cannot be checked", async () => {
    const validate: Validate = () => Promise.resolve({ valid: false, issues: [], schema_error: "the schema is not valid: x" });
    renderForm({ type: "object" }, {}, validate);
    const verdict = await screen.findByTestId("args-verdict", undefined, { timeout: 2000 });
    await waitFor(() => expect(verdict.dataset["verdict"]).toBe("unchecked"));
    expect((screen.getByTestId("call-tool-button") as HTMLButtonElement).textContent).toBe("Call");
  });

  it("edits raw JSON in CodeMirror, synced to the form, and says when it is not an object", () => {
    const { onCall, onChange } = renderForm({ type: "object", properties: { x: { type: "array" } } }, { x: [0] });
    fireEvent.click(screen.getByRole("button", { name: "JSON" }));
    const content = screen.getByTestId("json-editor");
    expect(content.getAttribute("aria-label")).toBe("Arguments as JSON");
    expect(content.textContent).toContain('"x"');
    typeJson("[1, 2]");
    expect(screen.getByRole("alert").textContent).toContain("must be a JSON object");
    fireEvent.click(screen.getByTestId("call-tool-button"));
    expect(onCall).not.toHaveBeenCalled();
    typeJson('{"x": [1, 2]}');
    expect(onChange).toHaveBeenLastCalledWith({ x: [1, 2] }); // the form follows the text
    fireEvent.click(screen.getByTestId("call-tool-button"));
    expect(onCall).toHaveBeenCalledWith({ x: [1, 2] });
  });

  it("shows the JSON editor and a note, not a frozen form, for a hostile schema", () => {
    const values = Array.from({ length: 100_000 }, (_, i) => `v${i}`);
    const started = performance.now();
    renderForm({ type: "object", properties: { pick: { enum: values } } });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(screen.getByTestId("schema-fallback").textContent).toContain("100,000 entries");
    expect(screen.getByTestId("json-editor")).toBeTruthy();
    expect((screen.getByRole("button", { name: "Form" }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryAllByRole("option")).toHaveLength(0);
  });

  it("falls back to JSON for a cyclic $ref", () => {
    renderForm({ type: "object", properties: { a: { $ref: "#/$defs/A" } }, $defs: { A: { $ref: "#/$defs/B" }, B: { $ref: "#/$defs/A" } } });
    expect(screen.getByTestId("schema-fallback").textContent).toMatch(/refers to itself/);
  });

  it("says when the schema declares no argument, and only then", () => {
    renderForm({ type: "object", properties: {} });
    expect(screen.getByTestId("no-arguments").textContent).toContain("Call sends an empty object ({})");
    cleanup();
    renderForm(createOrderSchema);
    expect(screen.queryByTestId("no-arguments")).toBeNull();
    cleanup();
    renderForm({ type: "object", additionalProperties: { type: "string" } });
    expect(screen.queryByTestId("no-arguments")).toBeNull();
  });

  it("speaks Chinese, the generated form's own buttons included", () => {
    applyLanguage("zh-Hans");
    try {
      renderForm({ type: "object", properties: { tags: { type: "array", items: { type: "string" } } } }, { tags: ["a", "b"] });
      expect((screen.getByTestId("call-tool-button") as HTMLButtonElement).textContent).toBe("调用");
      expect(screen.getByRole("button", { name: "表单" })).toBeTruthy();
      expect(screen.getAllByRole("button", { name: "上移" }).length).toBeGreaterThan(0);
      expect(screen.getByRole("button", { name: "添加" })).toBeTruthy();
    } finally {
      applyLanguage("en");
    }
  });
});
