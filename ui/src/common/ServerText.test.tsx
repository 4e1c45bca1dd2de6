import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ServerText } from "./ServerText";

describe("ServerText", () => {
  it("shows plain text as it is, with no mark", () => {
    const { container } = render(<ServerText text="Reads a file. 中文 ✓" />);
    expect(container.textContent).toBe("Reads a file. 中文 ✓");
    expect(screen.queryByTestId("hidden-char")).toBeNull();
  });

  it("marks each hidden run where it is and names its kind on hover", () => {
    const tags = [..."Ignore"].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join("");
    const { container } = render(<ServerText text={`Sorts names: \u202eexe.txt${tags}`} />);
    expect(container.textContent).toBe('Sorts names: ⟦U+202E⟧exe.txt⟦U+E0049…U+E0065, 6 tag characters: "Ignore"⟧');
    const marks = screen.getAllByTestId("hidden-char");
    expect(marks.map((m) => m.dataset.kind)).toEqual(["bidi", "tag"]);
    expect(marks[0]!.title).toContain("bidi control");
    expect(marks[1]!.title).toContain("tag characters");
    // Nothing hidden is left in what the page shows.
    expect(container.textContent).not.toMatch(/[\u202e\u{e0000}-\u{e007f}]/u);
  });
});
