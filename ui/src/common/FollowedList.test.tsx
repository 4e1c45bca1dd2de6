import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { FollowedList } from "./FollowedList";
import { WINDOWED_FROM } from "./ItemList";

afterEach(cleanup);

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i}`);

function renderList(n: number, before?: string) {
  return render(
    <div style={{ height: 400 }}>
      <FollowedList
        className="log"
        items={lines(n)}
        keyOf={(s) => s}
        render={(s) => <div data-testid="line">{s}</div>}
        estimate={20}
        before={before && <div data-testid="before">{before}</div>}
        empty={<div data-testid="empty">nothing yet</div>}
      />
    </div>,
  );
}

describe("FollowedList", () => {
  it("says what it says when there is nothing, with what comes before the rows", () => {
    renderList(0, "3 older lines are not kept");
    expect(screen.getByTestId("empty").textContent).toBe("nothing yet");
    expect(screen.getByTestId("before").textContent).toBe("3 older lines are not kept");
  });

  it("draws every row of a short list, in order", () => {
    renderList(WINDOWED_FROM - 1);
    const drawn = screen.getAllByTestId("line");
    expect(drawn).toHaveLength(WINDOWED_FROM - 1);
    expect(drawn[0]!.textContent).toBe("line 0");
    expect(document.querySelector("[data-windowed]")).toBeNull();
  });

  it("draws only the rows in sight of a long list, which is as tall as all its rows", () => {
    renderList(20_000, "older lines");
    const windowed = document.querySelector<HTMLElement>('[data-windowed="true"]');
    expect(windowed).not.toBeNull();
    expect(screen.queryAllByTestId("line").length).toBeLessThan(100);
    expect(parseInt(windowed!.style.height, 10)).toBe(20_000 * 20);
    expect(screen.getByTestId("before")).toBeTruthy();
  });
});
