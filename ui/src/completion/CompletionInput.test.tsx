import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Completion } from "../bindings/Completion";
import { CompletionInput } from "./CompletionInput";
import { DEBOUNCE_MS } from "./useCompletion";

const CATEGORIES = ["books", "music", "movies", "games", "garden"];

function answer(value: string): Completion {
  const values = CATEGORIES.filter((c) => c.startsWith(value.toLowerCase()));
  return { values, total: values.length, has_more: false };
}

function Field({ fetch }: { fetch: (value: string) => Promise<Completion> }) {
  const [value, setValue] = useState("");
  return (
    <CompletionInput value={value} onChange={setValue} fetch={fetch} completionKey="category" testId="f" name="category" />
  );
}

const settle = async (ms: number) => {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
};

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("CompletionInput", () => {
  it("asks once, 250 ms after the last keystroke, and shows the suggestions", async () => {
    const fetch = vi.fn((v: string) => Promise.resolve(answer(v)));
    render(<Field fetch={fetch} />);
    const input = screen.getByTestId("f");
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: "g" } });
    await settle(DEBOUNCE_MS - 50);
    fireEvent.change(input, { target: { value: "ga" } });
    await settle(DEBOUNCE_MS - 1);
    expect(fetch).not.toHaveBeenCalled();
    await settle(1);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch).toHaveBeenCalledWith("ga");
    const options = screen.getAllByTestId("completion-option").map((o) => o.textContent);
    expect(options).toEqual(["games", "garden"]);
  });

  it("picks a suggestion by click or by keyboard", async () => {
    const fetch = vi.fn((v: string) => Promise.resolve(answer(v)));
    render(<Field fetch={fetch} />);
    const input = screen.getByTestId<HTMLInputElement>("f");
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: "m" } });
    await settle(DEBOUNCE_MS);
    fireEvent.click(screen.getByRole("button", { name: "movies" }));
    expect(input.value).toBe("movies");
    expect(screen.queryByTestId("completion-list")).toBeNull();

    fireEvent.change(input, { target: { value: "g" } });
    await settle(DEBOUNCE_MS);
    fireEvent.keyDown(input, { key: "ArrowDown" });
    fireEvent.keyDown(input, { key: "ArrowDown" });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(input.value).toBe("garden");
  });

  it("drops an answer to an older value", async () => {
    const pending: Array<(c: Completion) => void> = [];
    const fetch = vi.fn(() => new Promise<Completion>((resolve) => pending.push(resolve)));
    render(<Field fetch={fetch} />);
    const input = screen.getByTestId("f");
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: "b" } });
    await settle(DEBOUNCE_MS);
    fireEvent.change(input, { target: { value: "mu" } });
    await settle(DEBOUNCE_MS);
    expect(fetch).toHaveBeenCalledTimes(2);
    await act(async () => {
      pending[1]!(answer("mu"));
      pending[0]!(answer("b"));
      await Promise.resolve();
    });
    expect(screen.getAllByTestId("completion-option").map((o) => o.textContent)).toEqual(["music"]);
  });

  it("says why there are no suggestions when the server refuses", async () => {
    const fetch = vi.fn(() => Promise.reject(new Error("Method not found")));
    render(<Field fetch={fetch} />);
    const input = screen.getByTestId("f");
    fireEvent.focus(input);
    await settle(DEBOUNCE_MS);
    expect(screen.getByText("No suggestions: Method not found")).toBeTruthy();
  });
});
