import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { applyLanguage } from "../i18n";
import type { RequestState } from "../state/calls";
import { PromptMessages } from "./PromptMessages";

afterEach(() => {
  cleanup();
  applyLanguage("en");
});

const running: RequestState = { status: "running", result: null, error: null, durationMs: null };

describe("PromptMessages", () => {
  it("shows a get under way with the time since it was sent", () => {
    render(<PromptMessages get={running} startedAt={Date.now() - 2300} />);
    expect(screen.getByTestId("prompt-pending").textContent).toContain("Getting the prompt…");
    expect(screen.getByTestId("prompt-elapsed").textContent).toMatch(/^2\.\d s$/);
  });

  it("names each message's content type in the UI's language", () => {
    applyLanguage("zh-Hans");
    const done: RequestState = {
      status: "done",
      result: { messages: [{ role: "user", content: { type: "text", text: "Ahoy" } }] },
      error: null,
      durationMs: 3,
    };
    render(<PromptMessages get={done} />);
    expect(screen.getByTestId("prompt-message").textContent).toContain("文本");
    cleanup();
    render(<PromptMessages get={running} startedAt={Date.now() - 1000} />);
    expect(screen.getByTestId("prompt-elapsed").textContent).toMatch(/^1\.\d 秒$/);
  });
});
