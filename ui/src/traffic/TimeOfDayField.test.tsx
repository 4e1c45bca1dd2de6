import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { TimeOfDayField, timeOfDayUs, usToTimeOfDay } from "./TimeOfDayField";

afterEach(cleanup);

const DAY = new Date(2026, 10, 24, 8, 0, 0);

describe("timeOfDayUs", () => {
  it("reads H:MM and HH:MM:SS as today's local time, and nothing else", () => {
    const at = (h: number, m: number, s: number) => new Date(2026, 10, 24, h, m, s).getTime() * 1000;
    expect(timeOfDayUs("12:30", DAY)).toBe(at(12, 30, 0));
    expect(timeOfDayUs("9:05:07", DAY)).toBe(at(9, 5, 7));
    expect(timeOfDayUs(" 23:59:59 ", DAY)).toBe(at(23, 59, 59));
    for (const wrong of ["", "12", "12:3", "24:00", "12:60", "12:00:60", "noon"]) expect(timeOfDayUs(wrong, DAY)).toBeNull();
    expect(usToTimeOfDay(at(9, 5, 7))).toBe("09:05:07");
    expect(usToTimeOfDay(null)).toBe("");
  });
});

function Field() {
  const [value, setValue] = useState<number | null>(null);
  return (
    <>
      <TimeOfDayField value={value} onChange={setValue} label="From" testId="from" />
      <output data-testid="value">{String(value)}</output>
      <button type="button" data-testid="clear" onClick={() => setValue(null)} />
    </>
  );
}

describe("TimeOfDayField", () => {
  it("is empty until a time is typed (a placeholder, no time shown), applies a whole time, marks a wrong one", () => {
    render(<Field />);
    const input = screen.getByTestId("from") as HTMLInputElement;
    expect(input.value).toBe("");
    expect(input.placeholder).toBe("any time");
    expect(input.type).toBe("text");
    fireEvent.change(input, { target: { value: "12:3" } });
    expect(screen.getByTestId("value").textContent).toBe("null");
    expect(input.getAttribute("aria-invalid")).toBe("true");
    fireEvent.change(input, { target: { value: "12:30" } });
    expect(input.value).toBe("12:30");
    expect(input.getAttribute("aria-invalid")).toBeNull();
    expect(Number(screen.getByTestId("value").textContent)).toBe(timeOfDayUs("12:30"));
    // Typing on (the seconds) is not overwritten by the value applied.
    fireEvent.change(input, { target: { value: "12:30:1" } });
    expect(input.value).toBe("12:30:1");
    fireEvent.change(input, { target: { value: "12:30:15" } });
    expect(Number(screen.getByTestId("value").textContent)).toBe(timeOfDayUs("12:30:15"));
    // Cleared from outside (the range's clear button): empty again.
    fireEvent.click(screen.getByTestId("clear"));
    expect(input.value).toBe("");
    fireEvent.change(input, { target: { value: "7:00" } });
    fireEvent.change(input, { target: { value: "" } });
    expect(screen.getByTestId("value").textContent).toBe("null");
  });
});
