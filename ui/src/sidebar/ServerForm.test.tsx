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
      era: "modern",
      target: {
        transport: "http",
        url: "https://x.test/mcp",
        headers: [
          ["X-Team", "blue"],
          ["X-Key", ""],
        ],
        secret_headers: ["X-Key"],
        mode: "streamable",
        oauth: { client_id: null, client_metadata_url: null, dpop: "auto", workload_identity: null },
      },
    };
    render(<ServerForm entry={entry} connected={false} onClose={vi.fn()} />);
    expect(option("http").getAttribute("aria-checked")).toBe("true");
    expect(screen.getByTestId<HTMLInputElement>("server-form-url").value).toBe("https://x.test/mcp");
    expect(screen.getByTestId<HTMLInputElement>("server-form-headers-name-0").value).toBe("X-Team");
    expect(screen.getByTestId<HTMLInputElement>("server-form-headers-value-0").value).toBe("blue");
    expect(screen.getByTestId<HTMLInputElement>("server-form-headers-secret-0").checked).toBe(false);
    // The secret is stored: masked, empty, never fetched unless asked for.
    const secret = screen.getByTestId<HTMLInputElement>("server-form-headers-value-1");
    expect(secret.type).toBe("password");
    expect(secret.value).toBe("");
    expect(secret.placeholder).toBe("stored in the keychain");
    expect(screen.getByTestId<HTMLInputElement>("server-form-headers-secret-1").checked).toBe(true);
    expect(screen.getByTestId<HTMLSelectElement>("server-form-mode").value).toBe("streamable");
    // The era the entry pins, with auto (probe with server/discover) one choice away.
    const era = screen.getByTestId<HTMLSelectElement>("server-form-era");
    expect(era.value).toBe("modern");
    expect(Array.from(era.options).map((o) => o.value)).toEqual(["auto", "modern", "legacy"]);
  });

  it("offers DPoP and workload identity in the sign-in options", () => {
    render(<ServerForm entry={null} connected={false} onClose={vi.fn()} />);
    fireEvent.click(option("http"));
    const dpop = screen.getByTestId<HTMLSelectElement>("server-form-dpop");
    expect(dpop.value).toBe("auto");
    expect([...dpop.options].map((o) => o.value)).toEqual(["auto", "required", "off"]);
    expect(screen.queryByTestId("server-form-workload-value")).toBeNull();
    fireEvent.change(screen.getByTestId("server-form-workload"), { target: { value: "file" } });
    expect(screen.getByTestId<HTMLInputElement>("server-form-workload-value").placeholder).toContain("/var/run/secrets");
    fireEvent.change(screen.getByTestId("server-form-name"), { target: { value: "R" } });
    fireEvent.change(screen.getByTestId("server-form-url"), { target: { value: "https://x.test/mcp" } });
    fireEvent.click(screen.getByTestId("server-form-save"));
    expect(screen.getByText("Give the path of the workload identity token file.")).toBeTruthy();
  });

  it("shows the header errors instead of saving", () => {
    render(<ServerForm entry={null} connected={false} onClose={vi.fn()} />);
    fireEvent.change(screen.getByTestId("server-form-name"), { target: { value: "R" } });
    fireEvent.click(option("http"));
    fireEvent.change(screen.getByTestId("server-form-url"), { target: { value: "https://x.test/mcp" } });
    fireEvent.click(screen.getByTestId("server-form-headers-add"));
    fireEvent.change(screen.getByTestId("server-form-headers-name-0"), { target: { value: "no colon here" } });
    fireEvent.click(screen.getByTestId("server-form-save"));
    expect(screen.getByText('Header 1: "no colon here" is not a valid header name')).toBeTruthy();
  });
});
