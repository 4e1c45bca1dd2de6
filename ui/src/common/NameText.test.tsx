import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { NameText } from "./NameText";

afterEach(cleanup);

describe("a name as the lists show it", () => {
  it("marks a letter of another script where it is, and says the name mixes scripts", () => {
    const { container } = render(
      <NameText name={"s\u0435nd_email"} odd={[{ at: 1, code_point: "U+0435", script: "Cyrillic", main: "Latin" }]} />,
    );
    const letter = screen.getByTestId("odd-letter");
    expect(letter.textContent).toBe("\u0435");
    expect(letter.dataset.script).toBe("Cyrillic");
    expect(letter.title).toContain("U+0435: a Cyrillic letter in a Latin name");
    expect(screen.getByTestId("mixed-scripts-badge").textContent).toBe("mixed scripts");
    // The name reads whole, in order.
    expect(container.textContent).toBe("s\u0435nd_emailmixed scripts");
  });

  it("counts characters, not UTF-16 units, and still marks hidden characters", () => {
    render(<NameText name={"𝒂\u200Db\u0430"} odd={[{ at: 3, code_point: "U+0430", script: "Cyrillic", main: "Latin" }]} />);
    expect(screen.getByTestId("odd-letter").textContent).toBe("\u0430");
    expect(screen.getByTestId("hidden-char").textContent).toBe("⟦U+200D⟧");
  });

  it("is the plain name when no letter is odd", () => {
    const { container } = render(<NameText name="send_email" odd={[]} />);
    expect(container.textContent).toBe("send_email");
    expect(screen.queryByTestId("mixed-scripts-badge")).toBeNull();
  });
});
