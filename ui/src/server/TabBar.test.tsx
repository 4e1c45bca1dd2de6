import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { nextTab, TAB_GROUPS, TabBar, visibleGroups } from "./TabBar";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("TabBar", () => {
  it("shows every view in its group, with the group's caption, and no arrows to scroll", () => {
    render(<TabBar serverId="s1" active="overview" remote={true} />);
    const surface = screen.getByTestId("tab-group-surface");
    expect(within(surface).getByText("Server")).toBeTruthy();
    expect(within(surface).getAllByRole("tab").map((tab) => tab.dataset.testid)).toEqual([
      "tab-overview",
      "tab-tools",
      "tab-resources",
      "tab-prompts",
      "tab-skills",
      "tab-apps",
    ]);
    const activity = screen.getByTestId("tab-group-activity");
    expect(within(activity).getAllByRole("tab").map((tab) => tab.dataset.testid)).toEqual([
      "tab-traffic",
      "tab-timeline",
      "tab-network",
      "tab-console",
    ]);
    // A tab is read with its group's name.
    const traffic = screen.getByTestId("tab-traffic");
    expect(document.getElementById(traffic.getAttribute("aria-describedby") ?? "")?.textContent).toBe("Activity");
    expect(screen.getAllByRole("tab")).toHaveLength(18);
    expect(screen.queryByTestId("tab-scroll-after")).toBeNull();
  });

  it("has an OAuth tab only for a remote server", () => {
    render(<TabBar serverId="s1" active="overview" remote={false} />);
    expect(screen.queryByTestId("tab-oauth")).toBeNull();
    expect(screen.getAllByRole("tab")).toHaveLength(17);
    expect(visibleGroups(true).flatMap((g) => g.tabs)).toHaveLength(TAB_GROUPS.flatMap((g) => g.tabs).length);
  });

  it("moves across groups with the arrow keys, in reading order", () => {
    render(<TabBar serverId="s1" active="apps" remote={false} />);
    const apps = screen.getByTestId("tab-apps");
    expect(apps.tabIndex).toBe(0);
    expect(screen.getByTestId("tab-traffic").tabIndex).toBe(-1);
    fireEvent.keyDown(apps, { key: "ArrowRight" });
    expect(document.activeElement).toBe(screen.getByTestId("tab-traffic"));
  });

  it("reaches every tab from the keyboard, the last with End and back round with ArrowRight", () => {
    const ids = ["overview", "tools", "traffic", "console"] as const;
    expect(nextTab(ids, "overview", "End")).toBe("console");
    expect(nextTab(ids, "console", "ArrowRight")).toBe("overview");
    expect(nextTab(ids, "overview", "ArrowLeft")).toBe("console");
    expect(nextTab(ids, "tools", "Enter")).toBeNull();
  });
});
