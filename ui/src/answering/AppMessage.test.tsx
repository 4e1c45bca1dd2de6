import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ContentBlock } from "../bindings/ContentBlock";
import { AppMessage } from "./AppMessage";

afterEach(cleanup);

const text = (words: string): ContentBlock => ({ type: "text", text: words, raw: { type: "text", text: words } });

const app = { view: 3, server_id: "demo", title: "Calculator app", resource_uri: "ui://periscope-demo/calculator.html" };

describe("AppMessage", () => {
  it("shows what the app wants to send, and sends nothing until the user says", () => {
    const onAnswer = vi.fn();
    render(<AppMessage serverName="Demo" app={app} blocks={[text("The sum is 42")]} onAnswer={onAnswer} />);
    expect(screen.getByTestId("app-message").textContent).toContain("Calculator app");
    expect(screen.getByTestId("app-message-content").textContent).toContain("The sum is 42");
    expect(onAnswer).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId("app-message-accept"));
    expect(onAnswer).toHaveBeenLastCalledWith(true);
    fireEvent.click(screen.getByTestId("app-message-decline"));
    expect(onAnswer).toHaveBeenLastCalledWith(false);
  });

  // One block as well as an array (the spec's example sends one) is the engine's to read
  // (views::content, ContentBlock::read_all); shown the same.
  it("shows one block the engine read", () => {
    render(<AppMessage serverName="Demo" app={app} blocks={[text("single")]} onAnswer={() => undefined} />);
    expect(screen.getByTestId("app-message-content").textContent).toContain("single");
  });

  it("Esc declines", () => {
    const onAnswer = vi.fn();
    render(<AppMessage serverName="Demo" app={app} blocks={[]} onAnswer={onAnswer} />);
    fireEvent.keyDown(screen.getByTestId("app-message"), { key: "Escape" });
    expect(onAnswer).toHaveBeenCalledWith(false);
  });
});
