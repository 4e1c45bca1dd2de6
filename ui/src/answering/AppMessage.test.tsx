import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AppMessage } from "./AppMessage";

afterEach(cleanup);

const app = { view: 3, server_id: "demo", title: "Calculator app", resource_uri: "ui://periscope-demo/calculator.html" };

describe("AppMessage", () => {
  it("shows what the app wants to send, and sends nothing until the user says", () => {
    const onAnswer = vi.fn();
    render(<AppMessage serverName="Demo" app={app} content={[{ type: "text", text: "The sum is 42" }]} onAnswer={onAnswer} />);
    expect(screen.getByTestId("app-message").textContent).toContain("Calculator app");
    expect(screen.getByTestId("app-message-content").textContent).toContain("The sum is 42");
    expect(onAnswer).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId("app-message-accept"));
    expect(onAnswer).toHaveBeenLastCalledWith(true);
    fireEvent.click(screen.getByTestId("app-message-decline"));
    expect(onAnswer).toHaveBeenLastCalledWith(false);
  });

  it("takes one block as well as an array (the spec's example sends one)", () => {
    render(<AppMessage serverName="Demo" app={app} content={{ type: "text", text: "single" }} onAnswer={() => undefined} />);
    expect(screen.getByTestId("app-message-content").textContent).toContain("single");
  });

  it("Esc declines", () => {
    const onAnswer = vi.fn();
    render(<AppMessage serverName="Demo" app={app} content={[]} onAnswer={onAnswer} />);
    fireEvent.keyDown(screen.getByTestId("app-message"), { key: "Escape" });
    expect(onAnswer).toHaveBeenCalledWith(false);
  });
});
