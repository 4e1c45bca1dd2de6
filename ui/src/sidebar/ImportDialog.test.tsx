import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ImportPreview } from "../bindings/ImportPreview";
import { applyLanguage } from "../i18n";
import { ImportDialog } from "./ImportDialog";

const invoke = vi.hoisted(() => vi.fn());
vi.mock("@tauri-apps/api/core", () => ({ invoke, Channel: class {} }));

const everything: ImportPreview = {
  dialect: "command-line",
  entries: [
    {
      entry: {
        id: "e",
        name: "server-everything",
        era: "auto",
        target: {
          transport: "stdio",
          command: "npx",
          args: ["-y", "@modelcontextprotocol/server-everything"],
          env: [],
          cwd: null,
          secret_env: [],
        },
      },
      needs: [],
      notes: [],
    },
  ],
  refused: [],
};

/** The preview answers when the test says so. */
let answer: (preview: ImportPreview) => void = () => undefined;

beforeEach(() => {
  invoke.mockReset();
  invoke.mockImplementation((command: string) => {
    if (command === "import_host_files") return Promise.resolve([]);
    if (command === "import_preview") return new Promise((done) => (answer = done));
    return Promise.resolve(undefined);
  });
});

afterEach(() => {
  cleanup();
  applyLanguage("en");
});

describe("the import dialog", () => {
  it("opened on a paste, previews it at once and says so while it reads", async () => {
    render(<ImportDialog initialText="npx -y @modelcontextprotocol/server-everything" onClose={vi.fn()} />);
    expect(screen.getByTestId<HTMLTextAreaElement>("import-text").value).toBe("npx -y @modelcontextprotocol/server-everything");
    expect(screen.getByTestId("import-progress").textContent).toContain("Reading the pasted text…");
    await waitFor(() =>
      expect(invoke).toHaveBeenCalledWith("import_preview", { text: "npx -y @modelcontextprotocol/server-everything", dialect: null }),
    );
    answer(everything);
    await screen.findByTestId("import-row");
    expect(screen.queryByTestId("import-progress")).toBeNull();
    expect(screen.getByTestId("import-confirm").textContent).toBe("Import 1 server");
    // Nothing was imported: that waits for the button.
    expect(invoke.mock.calls.map(([command]) => command)).not.toContain("import_save");
    // Where no host config is found, it says which hosts were looked for.
    expect(screen.getByTestId("import-no-host-files").textContent).toContain("Claude Desktop");
  });

  it("says when the paste holds nothing to import", async () => {
    render(<ImportDialog onClose={vi.fn()} />);
    fireEvent.change(screen.getByTestId("import-text"), { target: { value: "{}" } });
    fireEvent.click(screen.getByTestId("import-preview-button"));
    await waitFor(() => expect(invoke).toHaveBeenCalledWith("import_preview", { text: "{}", dialect: null }));
    answer({ dialect: "claude-desktop", entries: [], refused: [] });
    expect((await screen.findByTestId("import-nothing")).textContent).toContain("Nothing to import");
    expect(screen.queryByRole("table")).toBeNull();
    expect(screen.getByTestId<HTMLButtonElement>("import-confirm").disabled).toBe(true);
  });

  it("is in Chinese with one plural form", async () => {
    applyLanguage("zh-Hans");
    render(<ImportDialog initialText="npx -y @modelcontextprotocol/server-everything" onClose={vi.fn()} />);
    await waitFor(() => expect(invoke).toHaveBeenCalledWith("import_preview", expect.anything()));
    answer(everything);
    await screen.findByTestId("import-row");
    expect(screen.getByTestId("import-confirm").textContent).toBe("导入 1 个服务器");
    expect(screen.getByRole("dialog", { name: "导入服务器" })).toBeTruthy();
  });
});
