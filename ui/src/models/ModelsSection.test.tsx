import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { applyLanguage } from "../i18n";
import { ModelsSection, newProviderId } from "./ModelsSection";

const invoke = vi.hoisted(() => vi.fn());
vi.mock("@tauri-apps/api/core", () => ({ invoke, Channel: class {} }));

const saved = {
  provider: {
    id: "local-abc",
    name: "Local",
    kind: "open_ai_compatible",
    base_url: "http://localhost:11434/v1",
    model: "llama3.2",
    max_tokens: null,
    default: true,
  },
  has_key: true,
};

beforeEach(() => {
  invoke.mockReset();
  applyLanguage("en");
});
afterEach(cleanup);

describe("Settings → Models", () => {
  it("sends a typed key once, in a masked field, and forgets it on the page after saving", async () => {
    invoke.mockImplementation((command: string) => Promise.resolve(command === "models_save" ? [saved] : []));
    render(<ModelsSection />);
    fireEvent.click(await screen.findByTestId("model-add"));
    fireEvent.change(screen.getByTestId("model-name"), { target: { value: "Local" } });
    fireEvent.change(screen.getByTestId("model-base-url"), { target: { value: "http://localhost:11434/v1" } });
    fireEvent.change(screen.getByTestId("model-model"), { target: { value: "llama3.2" } });
    const key = screen.getByTestId<HTMLInputElement>("model-key");
    expect(key.type).toBe("password");
    fireEvent.change(key, { target: { value: "sk-typed" } });
    fireEvent.click(screen.getByTestId("model-save"));
    await screen.findByTestId("model-has-key");
    const call = invoke.mock.calls.find(([c]) => c === "models_save");
    expect(call?.[1]).toMatchObject({ key: { action: "set", key: "sk-typed" }, provider: { name: "Local", default: true } });
    expect(document.body.innerHTML).not.toContain("sk-typed");
  });

  it("keeps the stored key when the field is left empty, and says which model answered a test", async () => {
    invoke.mockImplementation((command: string) =>
      Promise.resolve(
        command === "models_list" || command === "models_save"
          ? [saved]
          : command === "models_test"
            ? { model: "llama3.2:latest", reply: "OK", timing: { first_token_us: 1000, total_us: 42000 } }
            : undefined,
      ),
    );
    render(<ModelsSection />);
    fireEvent.click(await screen.findByTestId("model-test"));
    await waitFor(() => expect(screen.getByTestId("model-probe").textContent).toBe("llama3.2:latest answered in 42 ms"));
    fireEvent.click(screen.getByTestId("model-edit"));
    fireEvent.click(screen.getByTestId("model-save"));
    await waitFor(() => expect(invoke.mock.calls.some(([c]) => c === "models_save")).toBe(true));
    const call = invoke.mock.calls.find(([c]) => c === "models_save");
    expect(call?.[1]).toMatchObject({ key: { action: "keep" }, provider: { id: "local-abc" } });
  });

  it("makes ids from names that cannot collide", () => {
    const a = newProviderId("My Ollama!");
    expect(a).toMatch(/^my-ollama-[a-z0-9]+$/);
    expect(newProviderId("My Ollama!")).not.toBe(a);
  });
});
