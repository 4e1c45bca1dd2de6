import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ServerEntry } from "../bindings/ServerEntry";
import { ServerForm } from "./ServerForm";

afterEach(cleanup);

const option = (value: string) =>
  screen.getByTestId("server-form-transport").querySelector<HTMLElement>(`[data-value="${value}"]`)!;

describe("ServerForm", () => {
  it("switches between the stdio and the HTTP fields", () => {
    render(<ServerForm entry={null} connected={false} onClose={vi.fn()} />);
    expect(screen.getByTestId("server-form-command")).toBeTruthy();
    expect(screen.queryByTestId("server-form-url")).toBeNull();
    fireEvent.click(option("http"));
    expect(option("http").getAttribute("aria-checked")).toBe("true");
    expect(screen.queryByTestId("server-form-command")).toBeNull();
    const mode = screen.getByTestId<HTMLSelectElement>("server-form-mode");
    expect(mode.value).toBe("auto");
    expect([...mode.options].map((o) => o.textContent)).toEqual([
      "Automatic (Streamable HTTP, else legacy SSE)",
      "Streamable HTTP",
      "Legacy HTTP+SSE",
    ]);
    fireEvent.change(screen.getByTestId("server-form-url"), { target: { value: "https://x.test/mcp" } });
    fireEvent.click(option("stdio"));
    fireEvent.click(option("http"));
    expect(screen.getByTestId<HTMLInputElement>("server-form-url").value).toBe("https://x.test/mcp");
  });

  it("fills the HTTP fields when editing an HTTP entry", () => {
    const entry: ServerEntry = {
      id: "r",
      name: "Remote",
      target: { transport: "http", url: "https://x.test/mcp", headers: [["X-Key", "v"]], mode: "streamable", oauth: { client_id: null, client_metadata_url: null } },
    };
    render(<ServerForm entry={entry} connected={false} onClose={vi.fn()} />);
    expect(option("http").getAttribute("aria-checked")).toBe("true");
    expect(screen.getByTestId<HTMLInputElement>("server-form-url").value).toBe("https://x.test/mcp");
    expect(screen.getByTestId<HTMLTextAreaElement>("server-form-headers").value).toBe("X-Key: v");
    expect(screen.getByTestId<HTMLSelectElement>("server-form-mode").value).toBe("streamable");
  });

  it("shows the header errors instead of saving", () => {
    render(<ServerForm entry={null} connected={false} onClose={vi.fn()} />);
    fireEvent.change(screen.getByTestId("server-form-name"), { target: { value: "R" } });
    fireEvent.click(option("http"));
    fireEvent.change(screen.getByTestId("server-form-url"), { target: { value: "https://x.test/mcp" } });
    fireEvent.change(screen.getByTestId("server-form-headers"), { target: { value: "no colon here" } });
    fireEvent.click(screen.getByTestId("server-form-save"));
    expect(screen.getByText('Header line 1 is not "Name: value": "no colon here"')).toBeTruthy();
  });
});
