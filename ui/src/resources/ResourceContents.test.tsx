import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Pager } from "./Pager";
import { ResourceContents } from "./ResourceContents";
import { resourceView } from "../testing/views";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("a resource read in progress", () => {
  it("shows nothing for a quick read, then a spinner with the URI and the time taken", () => {
    vi.useFakeTimers();
    const read = { status: "running" as const, result: null, error: null, durationMs: null, startedAt: Date.now() };
    render(<ResourceContents uri="demo://slow" read={read} />);
    expect(screen.getByTestId("resource-reading").textContent).toBe("");
    act(() => vi.advanceTimersByTime(1_250));
    expect(screen.getByTestId("resource-reading").textContent).toBe("Reading demo://slow…1.2 s");
  });
});

describe("the pager", () => {
  it("counts what is shown with the right plural", () => {
    const list = (n: number) => ({ status: "loaded" as const, items: Array.from({ length: n }, (_, i) => resourceView({ uri: `demo://${i}` })), error: null, nextCursor: "c" });
    const { rerender } = render(<Pager list={list(10)} kind="resources" testIdSuffix="" onMore={() => {}} onAll={() => {}} />);
    expect(screen.getByTestId("pager").textContent).toContain("10 resources shown; the server has more.");
    rerender(<Pager list={list(1)} kind="templates" testIdSuffix="" onMore={() => {}} onAll={() => {}} />);
    expect(screen.getByTestId("pager").textContent).toContain("1 template shown; the server has more.");
  });
});
