import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { TokenReport } from "../bindings/TokenReport";
import { TokenTable } from "./TokenTable";

afterEach(cleanup);

const count = (o200k: number) => ({ o200k, cl100k: o200k - 1, anthropic_estimate: Math.ceil(o200k * 1.2) });

const report = (n: number, over: boolean): TokenReport => ({
  items: [
    ...Array.from({ length: n }, (_, i) => ({ subject: "tool" as const, name: `tool_${i}`, tokens: count(100 - i) })),
    { subject: "instructions" as const, name: "", tokens: count(5) },
  ],
  total: count(1234),
  budget: 1000,
  over_budget: over,
});

describe("the audit's token table", () => {
  it("gives the totals by tokenizer, the Anthropic figure as an estimate, and each item", () => {
    render(<TokenTable tokens={report(2, false)} showAll={false} />);
    const total = screen.getByTestId("audit-tokens-total").textContent ?? "";
    expect(total).toContain("1,234 tokens with OpenAI's o200k_base");
    expect(total).toContain("about 1,481 for Anthropic's models (an estimate)");
    const rows = screen.getAllByTestId("audit-tokens-row");
    expect(rows.map((r) => r.getAttribute("data-name"))).toEqual(["tool_0", "tool_1", ""]);
    expect(rows[2]!.textContent).toContain("The server's instructions");
    expect(screen.queryByTestId("audit-tokens-over")).toBeNull();
  });

  it("warns above the budget and lists the first ten unless every result is shown", () => {
    const { rerender } = render(<TokenTable tokens={report(12, true)} showAll={false} />);
    expect(screen.getByTestId("audit-tokens-over").textContent).toContain("over the budget of 1,000");
    expect(screen.getAllByTestId("audit-tokens-row")).toHaveLength(10);
    rerender(<TokenTable tokens={report(12, true)} showAll />);
    expect(screen.getAllByTestId("audit-tokens-row")).toHaveLength(13);
  });

  it("draws a long table fifty rows at a time", () => {
    render(<TokenTable tokens={report(120, false)} showAll />);
    expect(screen.getAllByTestId("audit-tokens-row")).toHaveLength(50);
    fireEvent.click(screen.getByTestId("audit-tokens-more"));
    expect(screen.getAllByTestId("audit-tokens-row")).toHaveLength(100);
    fireEvent.click(screen.getByTestId("audit-tokens-more"));
    expect(screen.getAllByTestId("audit-tokens-row")).toHaveLength(121);
    expect(screen.queryByTestId("audit-tokens-more")).toBeNull();
  });
});
