import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { FormField } from "../bindings/FormField";
import forms from "./fixtures/forms.json";
import { ElicitForm } from "./ElicitForm";

afterEach(cleanup);

// The fields the engine reads from each schema (views::elicitation checks this file).
function renderForm(form: keyof typeof forms = "dinner", message = "Who are you?\nTell me.") {
  const onAnswer = vi.fn();
  const fields = forms[form].fields as FormField[];
  render(<ElicitForm serverName="everything" message={message} fields={fields} onAnswer={onAnswer} />);
  return onAnswer;
}

const field = (name: string) => screen.getByTestId(`elicit-field-${name}`) as HTMLInputElement;
const type = (name: string, value: string) => fireEvent.change(field(name), { target: { value } });

describe("ElicitForm", () => {
  it("names the server, keeps the message's newlines, and shows fitting labelled inputs", () => {
    renderForm();
    expect(screen.getByRole("heading").textContent).toBe("everything asks");
    expect(screen.getByText(/Who are you\?/).textContent).toBe("Who are you?\nTell me.");
    expect(screen.getByLabelText(/Your name/)).toBe(field("name"));
    expect(field("name").getAttribute("aria-describedby")).toBeTruthy();
    expect(screen.getByText("Given name only")).toBeTruthy();
    expect(screen.getByText("At least 2 characters.")).toBeTruthy();
    expect(field("email").type).toBe("email");
    expect(field("site").type).toBe("url");
    expect(field("born").type).toBe("date");
    expect(field("meeting").type).toBe("datetime-local");
    expect(field("guests").type).toBe("number");
    expect([field("guests").min, field("guests").max, field("guests").step]).toEqual(["1", "9", "1"]);
    expect(field("guests").value).toBe("2");
    expect(field("vegan").type).toBe("checkbox");
    expect(field("size").tagName).toBe("SELECT");
    expect(screen.getByRole("option", { name: "Large" })).toBeTruthy();
    expect(field("tags").tagName).toBe("FIELDSET");
    expect((screen.getByTestId("elicit-option-tags-b") as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText(/Cancel dismisses it without choosing/)).toBeTruthy();
  });

  it("shows errors only after Accept, does not answer, and updates them live", () => {
    const onAnswer = renderForm();
    type("name", "A");
    expect(screen.queryByTestId("elicit-error-name")).toBeNull();
    fireEvent.click(screen.getByTestId("elicit-accept"));
    expect(onAnswer).not.toHaveBeenCalled();
    expect(screen.getByTestId("elicit-error-name").textContent).toBe("Enter at least 2 characters.");
    expect(screen.getByTestId("elicit-error-email").textContent).toBe("This field is required.");
    expect(field("email").getAttribute("aria-invalid")).toBe("true");
    type("name", "Ann");
    expect(screen.queryByTestId("elicit-error-name")).toBeNull();
    type("email", "nope");
    expect(screen.getByTestId("elicit-error-email").textContent).toMatch(/email address/);
  });

  it("accepts with typed content, leaving out empty optional fields", () => {
    const onAnswer = renderForm();
    type("name", "Ann");
    type("email", "ann@example.com");
    type("budget", "12.5");
    fireEvent.click(field("vegan"));
    fireEvent.change(field("size"), { target: { value: "l" } });
    fireEvent.click(screen.getByTestId("elicit-option-tags-a"));
    fireEvent.click(screen.getByTestId("elicit-accept"));
    expect(onAnswer).toHaveBeenCalledTimes(1);
    expect(onAnswer).toHaveBeenCalledWith("accept", {
      name: "Ann",
      email: "ann@example.com",
      guests: 2,
      budget: 12.5,
      vegan: true,
      size: "l",
      tags: ["a", "b"],
    });
  });

  it("sends a date-time with an offset", () => {
    const onAnswer = renderForm("at_required");
    type("at", "2025-03-01T09:30");
    fireEvent.click(screen.getByTestId("elicit-accept"));
    const sent = onAnswer.mock.calls[0]![1] as { at: string };
    expect(sent.at).toMatch(/^2025-03-01T09:30:00(Z|[+-]\d{2}:\d{2})$/);
  });

  it("declines and cancels without content, even when the form is invalid", () => {
    const onAnswer = renderForm();
    fireEvent.click(screen.getByTestId("elicit-decline"));
    fireEvent.click(screen.getByTestId("elicit-cancel"));
    expect(onAnswer.mock.calls).toEqual([
      ["decline", null],
      ["cancel", null],
    ]);
  });

  it("accepts an empty schema with an empty object", () => {
    const onAnswer = renderForm("empty");
    expect(screen.getByText(/asks for no information/)).toBeTruthy();
    fireEvent.click(screen.getByTestId("elicit-accept"));
    expect(onAnswer).toHaveBeenCalledWith("accept", {});
  });
});
