import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { selectTool, setTab } from "../actions/view";
import type { AuditReport } from "../bindings/AuditReport";
import type { Finding } from "../bindings/Finding";
import { AuditFindings } from "./AuditFindings";

vi.mock("@tauri-apps/api/core", () => ({ invoke: vi.fn(), Channel: class {} }));
vi.mock("../actions/view", () => ({ setTab: vi.fn(), selectTool: vi.fn(), selectPrompt: vi.fn() }));

afterEach(cleanup);

const finding = (over: Partial<Finding>): Finding => ({
  rule: "model-tag",
  severity: "error",
  server: "poisoned-server",
  subject: "tool",
  name: "read_file",
  field: "description",
  span: { start: 14, end: 25 },
  excerpt: "<IMPORTANT>",
  message: 'the description holds markup that speaks to the model: "<IMPORTANT>"',
  ...over,
});

const audit: AuditReport = {
  findings: [
    finding({}),
    finding({ rule: "hidden-in-name", name: "send\u200dmail", field: "name", excerpt: "⟦U+200D⟧" }),
    finding({ rule: "open-input", severity: "info", field: "inputSchema.properties.path", span: null, excerpt: "" }),
  ],
  counts: { error: 2, warning: 0, info: 1 },
  hosts: null,
  tokens: null,
};

describe("the check's audit section", () => {
  it("lists the findings above information, counts each severity, and marks a hidden name", () => {
    render(<AuditFindings audit={audit} serverId="s" showAll={false} />);
    const section = screen.getByTestId("check-audit");
    expect(screen.getByTestId("audit-count-error").textContent).toBe("2 errors");
    expect(screen.getByTestId("audit-count-info").textContent).toBe("1 info");
    expect(screen.queryByTestId("audit-finding-open-input")).toBeNull();
    expect(within(screen.getByTestId("audit-finding-model-tag")).getByTestId("audit-excerpt").textContent).toBe("<IMPORTANT>");
    // The name carries a zero-width joiner: shown marked, never raw.
    const hidden = within(screen.getByTestId("audit-finding-hidden-in-name")).getByTestId("hidden-char");
    expect(hidden.textContent).toBe("⟦U+200D⟧");
    expect(section.textContent).not.toContain("\u200d");
  });

  it("opens a finding to why it matters and its fix, and to the tool it is about", () => {
    render(<AuditFindings audit={audit} serverId="s" showAll={true} />);
    expect(screen.getByTestId("audit-finding-open-input")).toBeTruthy();
    const row = screen.getByTestId("audit-finding-model-tag");
    fireEvent.click(within(row).getByRole("button", { expanded: false }));
    const detail = within(row).getByTestId("audit-detail");
    expect(detail.textContent).toContain("Describe what the tool does in plain words");
    fireEvent.click(within(row).getByTestId("audit-open"));
    expect(setTab).toHaveBeenCalledWith("s", "tools");
    expect(selectTool).toHaveBeenCalledWith("s", "read_file");
  });

  it("says when nothing was found", () => {
    render(<AuditFindings audit={{ findings: [], counts: { error: 0, warning: 0, info: 0 }, hosts: null, tokens: null }} serverId="s" showAll={false} />);
    expect(screen.getByTestId("check-audit").textContent).toContain("No finding");
  });
});
