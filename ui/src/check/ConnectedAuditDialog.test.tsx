import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ConnectedAudit } from "../bindings/ConnectedAudit";
import type { Finding } from "../bindings/Finding";
import { ConnectedAuditDialog } from "./ConnectedAuditDialog";

const invoke = vi.hoisted(() => vi.fn());
vi.mock("@tauri-apps/api/core", () => ({ invoke, Channel: class {} }));

afterEach(() => {
  cleanup();
  invoke.mockReset();
});

const cost = (o200k: number) => ({ o200k, cl100k: o200k - 10, anthropic_estimate: Math.round(o200k * 1.2) });

const shadowed: Finding = {
  rule: "shadowed-name",
  severity: "warning",
  server: "Notes",
  subject: "tool",
  name: "send_email",
  field: "name",
  span: null,
  excerpt: "",
  message: "server \"Mail\" has a tool of this name too",
};

const audit: ConnectedAudit = {
  report: {
    servers: [
      { server: "Notes", tools: 2, tokens: cost(900), counts: { error: 0, warning: 1, info: 0 } },
      { server: "Mail", tools: 1, tokens: cost(300), counts: { error: 0, warning: 0, info: 0 } },
    ],
    total: cost(1200),
    budget: 10000,
    over_budget: false,
    audit: { findings: [shadowed], counts: { error: 0, warning: 1, info: 0 }, hosts: null, tokens: null },
  },
  servers: [
    { server_id: "mail", name: "Mail" },
    { server_id: "notes", name: "Notes" },
  ],
  unread: ["Mail: prompts/list: Method not found"],
};

describe("the audit of every connected server together", () => {
  it("counts each server and the sum, warns above the budget the user types, and names each finding's server", async () => {
    invoke.mockResolvedValue(audit);
    render(<ConnectedAuditDialog onClose={() => undefined} />);
    expect(screen.getByTestId("audit-connected-loading")).toBeTruthy();
    await waitFor(() => screen.getByTestId("audit-connected-total"));
    expect(invoke).toHaveBeenCalledWith("audit_connected");
    expect(screen.getByTestId("audit-connected-total").textContent).toContain("2 servers together: 1,200 tokens");
    expect(screen.getAllByTestId("audit-connected-row").map((r) => r.dataset.server)).toEqual(["Notes", "Mail"]);
    expect(screen.queryByTestId("audit-connected-over")).toBeNull();
    const budget = screen.getByTestId("audit-connected-budget");
    // A field being emptied is not a budget of 0.
    fireEvent.change(budget, { target: { value: "" } });
    expect(screen.queryByTestId("audit-connected-over")).toBeNull();
    fireEvent.change(budget, { target: { value: "1000" } });
    expect(screen.getByTestId("audit-connected-over").textContent).toContain("1,200 tokens, over the budget of 1,000");
    expect(screen.getByTestId("audit-finding-server").textContent).toBe("Notes");
    expect(screen.getByTestId("audit-connected-unread").textContent).toContain("Mail: prompts/list");
  });

  it("says when nothing is connected, and reads the lists anew on Audit again", async () => {
    invoke.mockResolvedValue({ ...audit, servers: [], report: { ...audit.report, servers: [] } });
    render(<ConnectedAuditDialog onClose={() => undefined} />);
    await waitFor(() => screen.getByTestId("audit-connected-empty"));
    fireEvent.click(screen.getByTestId("audit-connected-again"));
    await waitFor(() => expect(invoke).toHaveBeenCalledTimes(2));
  });
});
