import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { Finding } from "../bindings/Finding";
import { ResultFindings } from "./ResultFindings";

afterEach(cleanup);

const finding = (rule: Finding["rule"], severity: Finding["severity"], excerpt: string): Finding => ({
  rule,
  severity,
  server: "poisoned-server",
  subject: "tool_result",
  name: "fetch_page",
  field: "content[0].text",
  span: { start: 0, end: excerpt.length },
  excerpt,
  message: "",
});

describe("what a tool's result holds that is aimed at the model", () => {
  it("is said above the result, each finding with its severity, rule, field and text", () => {
    render(<ResultFindings findings={[finding("model-tag", "error", "<IMPORTANT>"), finding("hidden-bidi-control", "error", "⟦U+202E⟧")]} />);
    expect(screen.getByTestId("result-findings").textContent).toContain("2 things aimed at the model");
    const tag = screen.getByTestId("result-finding-model-tag");
    expect(tag.dataset.severity).toBe("error");
    expect(tag.textContent).toContain("Markup that speaks to the model with authority");
    expect(tag.textContent).toContain("content[0].text");
    expect(tag.textContent).toContain("<IMPORTANT>");
    expect(screen.getByTestId("result-finding-hidden-bidi-control").textContent).toContain("⟦U+202E⟧");
  });

  it("draws nothing for a clean result", () => {
    const { container } = render(<ResultFindings findings={[]} />);
    expect(container.innerHTML).toBe("");
  });
});
