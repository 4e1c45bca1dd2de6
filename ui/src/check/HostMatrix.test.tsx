import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { HostReport } from "../bindings/HostReport";
import { applyLanguage } from "../i18n";
import { HostMatrix } from "./HostMatrix";

afterEach(() => {
  cleanup();
  applyLanguage("en");
});

const report: HostReport = {
  hosts: [
    { id: "anthropic", name: "Anthropic API", source: "https://example.com/a" },
    { id: "vscode", name: "VS Code", source: "https://example.com/v" },
  ],
  tools: [
    {
      tool: "send\u200dmail",
      hosts: [
        {
          host: "anthropic",
          verdict: "rejects",
          reasons: [
            {
              check: "name_pattern",
              effect: "rejects",
              message: "the API refuses the whole request",
              message_zh: "API 拒绝整个请求",
              detail: 'name "send\u200dmail"',
              source: "define-tools",
              basis: "observed",
            },
          ],
          sent: null,
        },
        {
          host: "vscode",
          verdict: "changes",
          reasons: [
            {
              check: "name_chars",
              effect: "changes",
              message: "VS Code replaces each character",
              message_zh: "VS Code 替换每个字符",
              detail: '"send\u200dmail" is sent as "send_mail"',
              source: "mcpServer.ts",
              basis: "code",
            },
          ],
          sent: { name: "send_mail", inputSchema: { type: "object" } },
        },
      ],
    },
    { tool: "add", hosts: [
      { host: "anthropic", verdict: "accepts", reasons: [], sent: null },
      { host: "vscode", verdict: "accepts", reasons: [], sent: null },
    ] },
  ],
  server: [],
};

describe("the audit's host matrix", () => {
  it("draws a verdict per tool and host, the tool name's hidden characters marked", () => {
    render(<HostMatrix hosts={report} />);
    const rows = screen.getAllByTestId("host-row");
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain("U+200D");
    const cells = screen.getAllByTestId("host-cell").map((c) => c.getAttribute("data-verdict"));
    expect(cells).toEqual(["rejects", "changes", "accepts", "accepts"]);
    expect((screen.getAllByTestId("host-cell")[2] as HTMLButtonElement).disabled).toBe(true);
  });

  it("opens a cell to its reasons, their sources, and the tool as the host sends it", () => {
    render(<HostMatrix hosts={report} />);
    fireEvent.click(screen.getAllByTestId("host-cell")[1]!);
    const detail = screen.getByTestId("host-detail");
    expect(detail.textContent).toContain("VS Code replaces each character");
    expect(detail.textContent).toContain("The host's code: mcpServer.ts");
    expect(screen.getByTestId("host-sent").textContent).toContain('"name": "send_mail"');
    fireEvent.click(screen.getAllByTestId("host-cell")[1]!);
    expect(screen.queryByTestId("host-detail")).toBeNull();
  });

  it("says each reason in Chinese when the UI is in Chinese", () => {
    applyLanguage("zh-Hans");
    const capped: HostReport = {
      ...report,
      server: [
        {
          host: "vscode",
          reason: {
            check: "tools_max",
            effect: "rejects",
            message: "Copilot refuses a request with more than 128 tools",
            message_zh: "Copilot 拒绝包含超过 128 个工具的请求",
            detail: "130 tools, more than 128",
            source: "copilot",
            basis: "code",
          },
        },
      ],
    };
    render(<HostMatrix hosts={capped} />);
    expect(screen.getByTestId("host-server-note").textContent).toContain("Copilot 拒绝包含超过 128 个工具的请求");
    fireEvent.click(screen.getAllByTestId("host-cell")[1]!);
    const detail = screen.getByTestId("host-detail");
    expect(detail.textContent).toContain("VS Code 替换每个字符");
    expect(detail.textContent).not.toContain("VS Code replaces each character");
    expect(detail.textContent).toContain('"send_mail"');
  });
});

describe("the host matrix of a server with many tools", () => {
  it("draws fifty rows at a time", () => {
    const many: HostReport = {
      ...report,
      tools: Array.from({ length: 120 }, (_, i) => ({ tool: `t${i}`, hosts: report.tools[1]!.hosts })),
    };
    render(<HostMatrix hosts={many} />);
    expect(screen.getAllByTestId("host-row")).toHaveLength(50);
    expect(screen.getByTestId("host-matrix-more").textContent).toContain("50 of 120");
    fireEvent.click(screen.getByTestId("host-matrix-more"));
    expect(screen.getAllByTestId("host-row")).toHaveLength(100);
    fireEvent.click(screen.getByTestId("host-matrix-more"));
    expect(screen.getAllByTestId("host-row")).toHaveLength(120);
    expect(screen.queryByTestId("host-matrix-more")).toBeNull();
  });
});
