import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { UrlAnalysis } from "../bindings/UrlAnalysis";
import { UrlConsentDialog } from "./UrlConsentDialog";

afterEach(cleanup);

const writeText = vi.fn<(text: string) => Promise<void>>();
beforeEach(() => {
  writeText.mockReset().mockResolvedValue(undefined);
  Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
});

const clean: UrlAnalysis = {
  raw: "https://auth.example.com/authorize?client_id=abc",
  scheme: "https",
  host_ascii: "auth.example.com",
  host_unicode: "auth.example.com",
  openable: true,
  warnings: [],
};

const punycode: UrlAnalysis = {
  raw: "https://xn--pple-43d.com/login",
  scheme: "https",
  host_ascii: "xn--pple-43d.com",
  host_unicode: "аpple.com",
  openable: true,
  warnings: [
    { kind: "punycode", message: "The host is written with Punycode." },
    { kind: "mixed_script", message: "The host mixes scripts that look alike." },
  ],
};

function renderDialog(analysis: UrlAnalysis, url = analysis.raw) {
  const onDecide = vi.fn();
  render(
    <UrlConsentDialog serverName="auth-server" message={"Sign in\nto continue"} url={url} analysis={analysis} onDecide={onDecide} />,
  );
  return onDecide;
}

describe("UrlConsentDialog", () => {
  it("names the server, shows the host big, and the full URL with the host emphasised", () => {
    renderDialog(clean);
    expect(screen.getByRole("dialog").textContent).toContain("auth-server asks you to open a web page");
    expect(screen.getByText(/Sign in/).textContent).toBe("Sign in\nto continue");
    expect(screen.getByTestId("url-host").textContent).toBe("auth.example.com");
    expect(screen.queryByText("actual (DNS) form")).toBeNull();
    const full = screen.getByTestId("url-full");
    expect(full.textContent).toBe(clean.raw);
    expect(full.querySelector("mark")?.textContent).toBe("auth.example.com");
    expect(screen.queryAllByTestId("url-warning")).toHaveLength(0);
    expect(screen.getByText("No warnings found. Check the host before you continue.")).toBeTruthy();
    expect(screen.getByText(/Nothing has been fetched/)).toBeTruthy();
  });

  it("opens on one click when there are no warnings", () => {
    const onDecide = renderDialog(clean);
    fireEvent.click(screen.getByTestId("url-open"));
    expect(onDecide).toHaveBeenCalledWith("open");
  });

  it("shows both forms of a look-alike host and every warning", () => {
    renderDialog(punycode);
    expect(screen.getByTestId("url-host").textContent).toBe("аpple.com");
    expect(screen.getByText("reads as")).toBeTruthy();
    expect(screen.getByText("actual (DNS) form")).toBeTruthy();
    expect(screen.getByTestId("url-host-ascii").textContent).toBe("xn--pple-43d.com");
    const warnings = screen.getAllByTestId("url-warning");
    expect(warnings.map((w) => w.dataset["kind"])).toEqual(["punycode", "mixed_script"]);
    expect(warnings[1]!.textContent).toBe("The host mixes scripts that look alike.");
    expect(warnings[0]!.querySelector("svg")).toBeTruthy();
    expect(screen.queryByText(/No warnings found/)).toBeNull();
    expect(screen.getByTestId("url-full").querySelector("mark")?.textContent).toBe("xn--pple-43d.com");
  });

  it("asks for a second click to open a link with warnings", () => {
    const onDecide = renderDialog(punycode);
    const open = screen.getByTestId("url-open");
    expect(open.textContent).toBe("Open in browser");
    fireEvent.click(open);
    expect(onDecide).not.toHaveBeenCalled();
    expect(open.textContent).toBe("Open anyway");
    fireEvent.click(open);
    expect(onDecide).toHaveBeenCalledExactlyOnceWith("open");
  });

  it("cannot open a link the host will not open, and says why", () => {
    const onDecide = renderDialog({
      raw: "javascript:alert(1)",
      scheme: "javascript",
      host_ascii: "",
      host_unicode: "",
      openable: false,
      warnings: [{ kind: "unsupported_scheme", message: "Only http and https links are opened." }],
    });
    const open = screen.getByTestId("url-open") as HTMLButtonElement;
    expect(open.disabled).toBe(true);
    fireEvent.click(open);
    expect(onDecide).not.toHaveBeenCalled();
    expect(screen.getByTestId("url-open-reason").textContent).toContain("Only http and https links are opened.");
    expect(screen.getByTestId("url-host").textContent).toBe("(no host)");
    expect(screen.getByTestId("url-full").textContent).toBe("javascript:alert(1)");
    expect(screen.getByTestId("url-full").querySelector("mark")).toBeNull();
  });

  it("shows the URL plain when the host is not found in it", () => {
    renderDialog(clean, "https://%61uth.example.com/");
    expect(screen.getByTestId("url-full").textContent).toBe("https://%61uth.example.com/");
    expect(screen.getByTestId("url-full").querySelector("mark")).toBeNull();
  });

  it("copies the URL without deciding", async () => {
    const onDecide = renderDialog(clean);
    await act(async () => {
      fireEvent.click(screen.getByTestId("url-copy"));
    });
    expect(writeText).toHaveBeenCalledWith(clean.raw);
    expect(screen.getByTestId("url-copy").textContent).toBe("Copied");
    expect(onDecide).not.toHaveBeenCalled();
  });

  it("maps the other buttons, and Escape, to their decisions", () => {
    const onDecide = renderDialog(punycode);
    fireEvent.click(screen.getByTestId("url-accept-only"));
    fireEvent.click(screen.getByTestId("url-decline"));
    fireEvent.click(screen.getByTestId("url-cancel"));
    fireEvent.keyDown(screen.getByTestId("url-decline"), { key: "Escape" });
    expect(onDecide.mock.calls).toEqual([["accept_without_opening"], ["decline"], ["cancel"], ["cancel"]]);
  });
});
