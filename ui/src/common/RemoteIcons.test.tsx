import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";

// The IPC is replaced here: this tests the consent step of the component (nothing is fetched
// before the click, one fetch per icon after it); the fetching itself is Rust (src-tauri icons.rs).
const { invoke } = vi.hoisted(() => ({ invoke: vi.fn() }));
vi.mock("@tauri-apps/api/core", () => ({ invoke }));

import { RemoteIcons } from "./RemoteIcons";

describe("RemoteIcons", () => {
  beforeEach(() => invoke.mockReset());

  it("fetches nothing until asked, then each icon once, showing failures in words", async () => {
    invoke.mockResolvedValueOnce("data:image/png;base64,AAAA").mockRejectedValueOnce(new Error("not an image (text/html)"));
    render(<RemoteIcons urls={["https://a.test/ok.png", "https://b.test/page"]} />);
    expect(invoke).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId("load-remote-icons"));
    expect(invoke).toHaveBeenCalledTimes(2);
    expect(invoke).toHaveBeenCalledWith("fetch_icon", { url: "https://a.test/ok.png" });
    await waitFor(() => expect(screen.getByTestId("remote-icon").getAttribute("src")).toBe("data:image/png;base64,AAAA"));
    expect(screen.getByTestId("remote-icon-error").textContent).toContain("not an image");
  });

  it("renders nothing without remote icons", () => {
    const { container } = render(<RemoteIcons urls={[]} />);
    expect(container.innerHTML).toBe("");
  });
});
