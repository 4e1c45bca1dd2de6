import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SchemaReport } from "../bindings/SchemaReport";
import { ToolResult } from "./ToolResult";
import type { Validate } from "./validation";
import type { ToolResultView } from "../bindings/ToolResultView";
import type { RequestState, RunningCall } from "../state/calls";
import { readResult, toolResult } from "../testing/results";

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
          result: toolResult("tool/error_with_text_and_image"),
        }}
      />,
    );
    const result = screen.getByTestId("tool-result");
    expect(result.dataset["isError"]).toBe("true");
    expect(screen.getByTestId("result-text").textContent).toBe("the tool failed on purpose");
    expect(screen.getByRole("img").getAttribute("src")).toBe(`data:image/png;base64,${PNG}`);
    expect(screen.getByText("The tool reported an error (isError: true)")).toBeTruthy();
    expect(result.dataset["outcome"]).toBe("tool-error");
  });

  it("shows structured content, and the raw JSON on request", () => {
    render(
      <ToolResult
        call={{
          status: "done",
          durationMs: 1,
          error: null,
          result: toolResult("tool/text_and_structured"),
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
    expect(screen.getByTestId("tool-result").dataset["outcome"]).toBe("protocol-error");
    expect(screen.getByRole("alert").textContent).toContain("server exited with status 1 before answering tools/call");
  });

  it("renders text as Markdown on request, as elements only: no HTML, inert links", () => {
    const text = "# Title\n\nSome **bold** and a [link](javascript:alert(1)).\n\n<img src=x onerror=alert(1)><b>raw</b>";
    render(<ToolResult call={done(toolResult("tool/markdown_text"))} validate={null} />);
    expect(screen.getByTestId("result-text").textContent).toBe(text);
    fireEvent.click(screen.getByTestId("markdown-toggle"));
    const md = screen.getByTestId("result-markdown");
    expect(md.querySelector("h1")?.textContent).toBe("Title");
    expect(md.querySelector("strong")?.textContent).toBe("bold");
    expect(md.querySelector("a")).toBeNull(); // links render as text, never navigate the app
    expect(md.querySelector("img")).toBeNull();
    expect(md.querySelector("b")).toBeNull(); // raw HTML is skipped
    expect(md.textContent).toContain("link");
    fireEvent.click(screen.getByTestId("markdown-toggle"));
    expect(screen.getByTestId("result-text")).toBeTruthy();
  });

  // The validator is the Rust one in the app; a stand-in here checks what the verdict shows.
  const verdictOf = (report: SchemaReport): Validate => () => Promise.resolve(report);
  const outputSchema = { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] };

  it("shows structuredContent's verdict against the outputSchema: valid", async () => {
    const validate = vi.fn(verdictOf({ valid: true, issues: [], schema_error: null }));
    render(<ToolResult call={done(toolResult("tool/structured_sum_3"))} outputSchema={outputSchema} validate={validate} />);
    const verdict = await screen.findByTestId("output-verdict", undefined, { timeout: 2000 });
    await waitFor(() => expect(verdict.dataset["verdict"]).toBe("valid"), { timeout: 2000 });
    expect(verdict.textContent).toContain("structuredContent matches the tool's outputSchema");
    expect(validate).toHaveBeenCalledWith(outputSchema, { sum: 3 });
  });

  it("shows which paths of structuredContent fail", async () => {
    const validate = verdictOf({ valid: false, issues: [{ path: "/sum", message: '"3" is not of type "number"' }], schema_error: null });
    render(<ToolResult call={done(toolResult("tool/structured_sum_string"))} outputSchema={outputSchema} validate={validate} />);
    const verdict = await screen.findByTestId("output-verdict", undefined, { timeout: 2000 });
    await waitFor(() => expect(verdict.dataset["verdict"]).toBe("invalid"), { timeout: 2000 });
    expect(verdict.textContent).toContain("structuredContent does not match the tool's outputSchema");
    expect(verdict.querySelector(".verdict-path")?.textContent).toBe("/sum");
  });

  it("says when an outputSchema tool sends no structuredContent, or there is no schema", () => {
    render(<ToolResult call={done(toolResult("tool/text_only"))} outputSchema={outputSchema} validate={null} />);
    expect(screen.getByTestId("output-verdict").dataset["verdict"]).toBe("missing");
    cleanup();
    render(<ToolResult call={done(toolResult("tool/structured_no_schema"))} validate={null} />);
    expect(screen.getByTestId("output-verdict").dataset["verdict"]).toBe("no-schema");
  });

  const runningCall = (over: Partial<RunningCall> = {}): RunningCall => ({
    serverId: "s",
    tool: "slow_task",
    callId: "c1",
    startedAt: Date.now() - 1500,
    progress: null,
    total: null,
    message: null,
    cancelled: false,
    ...over,
  });
  const pending: RequestState<ToolResultView> = { status: "running", result: null, error: null, durationMs: null };

  it("shows a running call's progress, elapsed time and a Cancel button", () => {
    const onCancel = vi.fn();
    const { rerender } = render(<ToolResult call={pending} running={runningCall()} onCancel={onCancel} />);
    const bar = screen.getByRole("progressbar");
    expect(bar.getAttribute("aria-valuenow")).toBeNull(); // indeterminate: no total yet
    expect(screen.getByTestId("call-elapsed").textContent).toMatch(/^1\.\d s$/);
    rerender(<ToolResult call={pending} running={runningCall({ progress: 2, total: 5, message: "step 2" })} onCancel={onCancel} />);
    expect(screen.getByRole("progressbar").getAttribute("aria-valuenow")).toBe("40");
    expect(screen.getByTestId("progress-text").textContent).toBe("2 of 5 · step 2");
    fireEvent.click(screen.getByTestId("cancel-call"));
    expect(onCancel).toHaveBeenCalledTimes(1);
    rerender(<ToolResult call={pending} running={runningCall({ cancelled: true })} onCancel={onCancel} />);
    expect((screen.getByTestId("cancel-call") as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText("Cancelling…")).toBeTruthy();
  });

  it("says a cancelled call was cancelled, not that it failed", () => {
    const call: RequestState<ToolResultView> = { status: "error", result: null, error: "tools/call: cancelled; sent notifications/cancelled", durationMs: 1200 };
    render(<ToolResult call={call} running={runningCall({ cancelled: true })} />);
    const result = screen.getByTestId("tool-result");
    expect(result.dataset["outcome"]).toBe("cancelled");
    expect(screen.getByText("Cancelled")).toBeTruthy();
    expect(screen.getByTestId("result-cancelled").textContent).toContain("It ran for 1.2 s");
  });

  it("shows every block kind the engine read, and why it cannot show the rest, with their JSON", () => {
    render(<ToolResult call={done(toolResult("tool/every_block_kind"))} validate={null} />);
    const result = screen.getByTestId("tool-result");
    expect(result.querySelector("audio")?.getAttribute("src")).toBe("data:audio/wav;base64,UklGRg==");
    expect(result.querySelector(".block-link")?.textContent).toContain("Text resource 1");
    expect(screen.getByTestId("resource-body").textContent).toContain("two");
    expect(result.textContent).toContain('unknown content type "hologram"');
    expect(result.textContent).toContain("image block without data or mimeType");
    expect(result.textContent).toContain("a content block is not an object");
  });

  it("reads a resource_link inline with one click", async () => {
    // onRead stands in for the app's read_resource command.
    const onRead = vi.fn(() => Promise.resolve(readResult("read/readme")));
    render(
      <ToolResult
        call={done(toolResult("tool/resource_link"))}
        onRead={onRead}
        validate={null}
      />,
    );
    fireEvent.click(screen.getByTestId("read-resource-link"));
    const contents = await screen.findByTestId("resource-link-contents");
    expect(onRead).toHaveBeenCalledWith("demo://readme");
    expect(contents.textContent).toContain("hello from the resource");
  });
});

function done(result: ToolResultView): RequestState<ToolResultView> {
  return { status: "done", result, error: null, durationMs: 2 };
}
