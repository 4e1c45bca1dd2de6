import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { invoke } from "@tauri-apps/api/core";
import { loadList } from "../actions/lists";
import { ToolChanged } from "./ToolChanged";

vi.mock("@tauri-apps/api/core", () => ({ invoke: vi.fn(), Channel: class {} }));
vi.mock("../actions/lists", () => ({ loadList: vi.fn() }));

afterEach(() => {
  cleanup();
  vi.mocked(invoke).mockReset();
  vi.mocked(loadList).mockReset();
});

const change = {
  key: "get_weather",
  changes: [
    { path: "/description", before: "Gets the weather.", after: "Gets the weather.\u202E hidden" },
    { path: "/inputSchema/properties/sidenote", before: undefined, after: { type: "string" } },
  ],
};

describe("a tool that changed since it was pinned", () => {
  it("shows each difference, marks hidden characters, and says what was absent", () => {
    render(<ToolChanged serverId="s" change={change} />);
    const items = screen.getAllByTestId("tool-change");
    expect(items.map((li) => li.getAttribute("data-path"))).toEqual(["/description", "/inputSchema/properties/sidenote"]);
    expect(items[0]!.textContent).toContain("Gets the weather.");
    expect(items[0]!.textContent).toContain("U+202E");
    expect(items[1]!.textContent).toContain("(absent)");
    expect(items[1]!.textContent).toContain('{"type":"string"}');
  });

  it("accepts the change as listed now, then lists the tools again", async () => {
    vi.mocked(invoke).mockResolvedValue(null);
    render(<ToolChanged serverId="s" change={change} />);
    fireEvent.click(screen.getByTestId("tool-change-accept"));
    await waitFor(() => expect(loadList).toHaveBeenCalledWith("s", "tools"));
    expect(invoke).toHaveBeenCalledWith("accept_tool_change", { serverId: "s", name: "get_weather" });
  });

  it("says why an accept failed", async () => {
    vi.mocked(invoke).mockRejectedValue({ kind: "not_connected", id: "s" });
    const { container } = render(<ToolChanged serverId="s" change={change} />);
    fireEvent.click(screen.getByTestId("tool-change-accept"));
    await waitFor(() => expect(container.querySelector(".error-box")).not.toBeNull());
    expect(loadList).not.toHaveBeenCalled();
  });
});
