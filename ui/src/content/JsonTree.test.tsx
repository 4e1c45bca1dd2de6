import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { CHILD_PAGE, JsonTree, summary } from "./JsonTree";

afterEach(cleanup);

describe("JsonTree", () => {
  it("summarizes containers", () => {
    expect(summary({ a: 1, b: 2 })).toBe("{2 keys}");
    expect(summary([1])).toBe("[1 item]");
    expect(summary([])).toBe("[0 items]");
    expect(summary("x")).toBe('"x"');
  });

  it("opens two levels at first and toggles a node", () => {
    render(<JsonTree value={{ user: { name: "Ada", tags: ["a", "b"], deep: { hidden: true } }, n: null }} />);
    const tree = screen.getByTestId("json-tree");
    expect(tree.textContent).toContain('name: "Ada"');
    expect(tree.textContent).toContain("n: null");
    // Level 2 (tags, deep) is shown collapsed.
    expect(tree.textContent).toContain("tags: [2 items]");
    expect(tree.textContent).not.toContain("hidden");
    fireEvent.click(screen.getByRole("button", { name: "Expand deep" }));
    expect(tree.textContent).toContain("hidden: true");
    fireEvent.click(screen.getByRole("button", { name: "Collapse user" }));
    expect(tree.textContent).not.toContain("Ada");
    expect(tree.textContent).toContain("user: {3 keys}");
  });

  it("shows long arrays a page at a time", () => {
    const many = Array.from({ length: CHILD_PAGE + 5 }, (_, i) => i);
    render(<JsonTree value={many} />);
    const tree = screen.getByTestId("json-tree");
    const rows = () => within(tree).getAllByRole("treeitem").length;
    expect(rows()).toBe(1 + CHILD_PAGE);
    fireEvent.click(screen.getByRole("button", { name: "Show 5 more of 5" }));
    expect(rows()).toBe(1 + CHILD_PAGE + 5);
  });

  it("gives strings, numbers, booleans and null their own look", () => {
    render(<JsonTree value={{ s: "x", n: 1.5, b: false, z: null }} />);
    const tree = screen.getByTestId("json-tree");
    expect(tree.querySelector(".json-string")?.textContent).toBe('"x"');
    expect(tree.querySelector(".json-number")?.textContent).toBe("1.5");
    expect(tree.querySelector(".json-boolean")?.textContent).toBe("false");
    expect(tree.querySelector(".json-null")?.textContent).toBe("null");
  });
});
