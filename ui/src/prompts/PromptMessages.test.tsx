import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { applyLanguage } from "../i18n";
import type { PromptResultView } from "../bindings/PromptResultView";
import type { RequestState } from "../state/calls";
import { promptResult } from "../testing/results";
import { PromptMessages } from "./PromptMessages";

afterEach(() => {
  cleanup();
  applyLanguage("en");
});

const running: RequestState<PromptResultView> = { status: "running", result: null, error: null, durationMs: null };

describe("PromptMessages", () => {
  it("shows a get under way with the time since it was sent", () => {
    render(<PromptMessages get={running} startedAt={Date.now() - 2300} />);
    expect(screen.getByTestId("prompt-pending").textContent).toContain("Getting the prompt…");
    expect(screen.getByTestId("prompt-elapsed").textContent).toMatch(/^2\.\d s$/);
  });

  it("names each message's content type in the UI's language", () => {
    applyLanguage("zh-Hans");
    const done: RequestState<PromptResultView> = {
      status: "done",
      result: promptResult("prompt/ahoy"),
      error: null,
      durationMs: 3,
    };
    render(<PromptMessages get={done} />);
    expect(screen.getByTestId("prompt-message").textContent).toContain("文本");
    cleanup();
    render(<PromptMessages get={running} startedAt={Date.now() - 1000} />);
    expect(screen.getByTestId("prompt-elapsed").textContent).toMatch(/^1\.\d 秒$/);
  });

  it("shows the description and each message with its role", () => {
    const done: RequestState<PromptResultView> = { status: "done", result: promptResult("prompt/greeting"), error: null, durationMs: 1 };
    render(<PromptMessages get={done} />);
    expect(screen.getByTestId("prompt-messages").textContent).toContain("A greeting");
    const message = screen.getByTestId("prompt-message");
    expect(message.dataset["role"]).toBe("user");
    expect(message.dataset["contentType"]).toBe("text");
    expect(message.textContent).toContain("Hello Ada");
  });
});
