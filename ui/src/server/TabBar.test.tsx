import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { nextTab, TabBar } from "./TabBar";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** Lays the bar out as WebKit would at `width` px for tabs `content` px wide, scrolled to `left`. */
function layout(bar: HTMLElement, width: number, content: number, left = 0) {
  Object.defineProperty(bar, "clientWidth", { configurable: true, value: width });
  Object.defineProperty(bar, "scrollWidth", { configurable: true, value: content });
  Object.defineProperty(bar, "scrollLeft", { configurable: true, value: left, writable: true });
}

describe("TabBar", () => {
  it("shows arrows toward the tabs that do not fit, and scrolls that way on a click", () => {
    render(<TabBar serverId="s1" active="overview" remote={false} />);
    const bar = screen.getByRole("tablist");
    expect(screen.queryByTestId("tab-scroll-after")).toBeNull();
    layout(bar, 1000, 1400);
    const scrollBy = vi.fn();
    (bar as HTMLElement & { scrollBy: typeof scrollBy }).scrollBy = scrollBy;
    act(() => void fireEvent.scroll(bar));
    expect(screen.getByTestId("tab-scroll-after").getAttribute("aria-label")).toBe("Show more tabs");
    expect(screen.queryByTestId("tab-scroll-before")).toBeNull();
    fireEvent.click(screen.getByTestId("tab-scroll-after"));
    expect(scrollBy).toHaveBeenCalledWith({ left: 800, behavior: "smooth" });
    // Scrolled to the end: the arrow points back only.
    layout(bar, 1000, 1400, 400);
    act(() => void fireEvent.scroll(bar));
    expect(screen.queryByTestId("tab-scroll-after")).toBeNull();
    expect(screen.getByTestId("tab-scroll-before")).toBeTruthy();
  });

  it("reaches every tab from the keyboard, the last with End and back round with ArrowRight", () => {
    const ids = ["overview", "tools", "traffic", "console"] as const;
    expect(nextTab(ids, "overview", "End")).toBe("console");
    expect(nextTab(ids, "console", "ArrowRight")).toBe("overview");
    expect(nextTab(ids, "overview", "ArrowLeft")).toBe("console");
    expect(nextTab(ids, "tools", "Enter")).toBeNull();
  });
});
