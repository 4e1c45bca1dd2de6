import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PairRows } from "./PairRows";
import { emptyRow, type PairRow } from "./serverForm";

// The engine's guess (`secret_hints`), stood in for: a GitHub token looks secret.
const invoke = vi.hoisted(() =>
  vi.fn((command: string, args: { pairs?: Array<[string, string]> }) =>
    Promise.resolve(command === "secret_hints" ? (args.pairs ?? []).map(([, value]) => value.startsWith("ghp_")) : null),
  ),
);
vi.mock("@tauri-apps/api/core", () => ({ invoke, Channel: class {} }));

afterEach(cleanup);

/** The rows with their state kept, as the form keeps them. */
function Harness({ initial, reveal }: { initial: PairRow[]; reveal?: (name: string) => Promise<string | null> }) {
  const [rows, setRows] = useState(initial);
  return (
    <>
      <PairRows kind="env" id="env" testId="env" rows={rows} onChange={setRows} reveal={reveal} />
      <output data-testid="state">{JSON.stringify(rows)}</output>
    </>
  );
}

const state = () => JSON.parse(screen.getByTestId("state").textContent ?? "[]") as PairRow[];
const input = (id: string) => screen.getByTestId<HTMLInputElement>(id);

describe("PairRows", () => {
  it("offers a token as a secret, masks it, and shows it on click", async () => {
    render(<Harness initial={[]} />);
    fireEvent.click(screen.getByTestId("env-add"));
    fireEvent.change(input("env-name-0"), { target: { value: "LEVEL" } });
    fireEvent.change(input("env-value-0"), { target: { value: "debug" } });
    await waitFor(() => expect(invoke).toHaveBeenCalledWith("secret_hints", { pairs: [["LEVEL", "debug"]] }));
    expect(input("env-secret-0").checked).toBe(false);
    expect(input("env-value-0").type).toBe("text");
    fireEvent.change(input("env-value-0"), { target: { value: "ghp_16C7e42F292c6912E7710c838347Ae178B4a" } });
    await waitFor(() => expect(input("env-secret-0").checked).toBe(true));
    expect(input("env-value-0").type).toBe("password");
    fireEvent.click(screen.getByTestId("env-show-0"));
    expect(input("env-value-0").type).toBe("text");
    fireEvent.click(screen.getByTestId("env-show-0"));
    expect(input("env-value-0").type).toBe("password");
    // The user's choice wins over the guess from then on.
    fireEvent.click(input("env-secret-0"));
    fireEvent.change(input("env-value-0"), { target: { value: "ghp_still-not-secret" } });
    await waitFor(() => expect(state()[0]).toMatchObject({ value: "ghp_still-not-secret", secretChosen: true }));
    expect(input("env-secret-0").checked).toBe(false);
  });

  it("fetches a stored secret only when asked, and before it is made plain", async () => {
    const reveal = vi.fn((name: string) => Promise.resolve(name === "API_KEY" ? "sk-stored" : null));
    const stored = { ...emptyRow, name: "API_KEY", secret: true, secretChosen: true, stored: true };
    render(<Harness initial={[stored, { ...stored, name: "OTHER_KEY" }]} reveal={reveal} />);
    expect(reveal).not.toHaveBeenCalled();
    expect(input("env-value-0").value).toBe("");

    fireEvent.click(screen.getByTestId("env-show-0"));
    await waitFor(() => expect(input("env-value-0").value).toBe("sk-stored"));
    expect(input("env-value-0").type).toBe("text");
    expect(reveal).toHaveBeenCalledWith("API_KEY");

    // Unticking a stored secret puts its value in the row first: it is about to enter the catalog.
    fireEvent.click(input("env-secret-1"));
    await waitFor(() => expect(state()[1]).toMatchObject({ secret: false, stored: false, value: "" }));
    expect(reveal).toHaveBeenCalledWith("OTHER_KEY");
  });

  it("turns pasted KEY=VALUE lines into rows, each guessed by the engine", async () => {
    render(<Harness initial={[emptyRow]} />);
    fireEvent.paste(input("env-name-0"), {
      clipboardData: { getData: () => "LEVEL=debug\nGITHUB_TOKEN=ghp_abc" },
    });
    await waitFor(() =>
      expect(state().map((r) => [r.name, r.value, r.secret])).toEqual([
        ["LEVEL", "debug", false],
        ["GITHUB_TOKEN", "ghp_abc", true],
      ]),
    );
  });
});
