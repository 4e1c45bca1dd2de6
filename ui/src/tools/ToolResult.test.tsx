import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ToolResult } from "./ToolResult";

afterEach(cleanup);

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

describe("ToolResult", () => {
  it("renders text and image blocks of an isError result as an error", () => {
    render(
      <ToolResult
        call={{
          status: "done",
          durationMs: 3.2,
          error: null,
          result: {
            content: [
              { type: "text", text: "the tool failed on purpose" },
              { type: "image", data: PNG, mimeType: "image/png" },
            ],
            isError: true,
          },
        }}
      />,
    );
    const result = screen.getByTestId("tool-result");
    expect(result.dataset["isError"]).toBe("true");
    expect(screen.getByTestId("result-text").textContent).toBe("the tool failed on purpose");
    expect(screen.getByRole("img").getAttribute("src")).toBe(`data:image/png;base64,${PNG}`);
    expect(screen.getByText("The tool reported an error")).toBeTruthy();
  });

  it("shows structured content, and the raw JSON on request", () => {
    render(
      <ToolResult
        call={{
          status: "done",
          durationMs: 1,
          error: null,
          result: { content: [{ type: "text", text: "42" }], structuredContent: { sum: 42 } },
        }}
      />,
    );
    expect(screen.getByTestId("tool-result").dataset["isError"]).toBe("false");
    expect(screen.getByText("structuredContent")).toBeTruthy();
    fireEvent.click(screen.getByLabelText("Raw JSON"));
    expect(screen.queryByTestId("result-text")).toBeNull();
    expect(screen.getByText(/"structuredContent": \{/)).toBeTruthy();
  });

  it("shows a rejected call's message as an error", () => {
    render(
      <ToolResult
        call={{ status: "error", durationMs: 5, result: null, error: "server exited with status 1 before answering tools/call" }}
      />,
    );
    expect(screen.getByTestId("tool-result").dataset["isError"]).toBe("true");
    expect(screen.getByRole("alert").textContent).toContain("server exited with status 1 before answering tools/call");
  });
});
