import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ItemList, WINDOWED_FROM } from "./ItemList";

afterEach(cleanup);

const items = (n: number) => Array.from({ length: n }, (_, i) => `tool_${i}`);

function renderList(n: number) {
  return render(
    <div className="split-list" style={{ height: 400, overflowY: "auto" }}>
      <ItemList items={items(n)} keyOf={(s) => s} label="Tools" render={(s) => <button type="button">{s}</button>} />
    </div>,
  );
}

describe("ItemList", () => {
  it("draws every row of a short list", () => {
    renderList(WINDOWED_FROM - 1);
    expect(screen.getAllByRole("button")).toHaveLength(WINDOWED_FROM - 1);
    expect(screen.getByRole("list").dataset.windowed).toBeUndefined();
  });

  it("draws only the rows in sight of a long list, and says how long it is", () => {
    renderList(20_000);
    const list = screen.getByRole("list");
    expect(list.dataset.windowed).toBe("true");
    const drawn = screen.queryAllByRole("button").length;
    expect(drawn).toBeLessThan(100);
    // The list is as tall as all its rows, so the scrollbar says where the user is.
    expect(parseInt(list.style.height, 10)).toBeGreaterThan(20_000 * 30);
    const first = screen.queryAllByRole("listitem")[0];
    if (first) expect(first.getAttribute("aria-setsize")).toBe("20000");
  });
});
