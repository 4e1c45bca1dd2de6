import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import i18n, { applyLanguage } from "../i18n";
import { appSettings, setAppSettings } from "./appSettings";
import { SettingsDialog } from "./SettingsDialog";

const invoke = vi.hoisted(() => vi.fn());
vi.mock("@tauri-apps/api/core", () => ({ invoke, Channel: class {} }));

const places = {
  data_folder: "/home/ada/.local/share/dev.periscope.app",
  secrets_in_keychain: false,
  secrets_file: "/home/ada/.local/share/dev.periscope.app/credentials.json",
  keychain_unavailable_because: "no Secret Service",
};

beforeEach(() => {
  invoke.mockReset();
  invoke.mockImplementation((command: string) => Promise.resolve(command === "data_places" ? places : command === "clear_all_history" ? 1 : undefined));
  setAppSettings({ request_timeout_s: 60, default_era: "auto", theme: "light", language: "system" });
  applyLanguage("en");
});

afterEach(() => {
  cleanup();
  setAppSettings({ request_timeout_s: 60, default_era: "auto", theme: "light", language: "en" });
  applyLanguage("en");
});

describe("the settings dialog", () => {
  it("offers each language by its own name, and applies the one saved at once", async () => {
    const onClose = vi.fn();
    render(<SettingsDialog onClose={onClose} />);
    const select = screen.getByTestId<HTMLSelectElement>("settings-language");
    expect(select.value).toBe("system");
    expect([...select.options].map((o) => [o.value, o.textContent])).toEqual([
      ["system", "System (follows the desktop)"],
      ["en", "English"],
      ["zh-Hans", "简体中文"],
    ]);
    fireEvent.change(select, { target: { value: "zh-Hans" } });
    fireEvent.click(screen.getByTestId("settings-save"));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(invoke).toHaveBeenCalledWith("app_settings_save", {
      settings: { request_timeout_s: 60, default_era: "auto", theme: "light", language: "zh-Hans" },
    });
    expect(appSettings().language).toBe("zh-Hans");
    expect(i18n.language).toBe("zh-Hans");
  });

  it("is in the chosen language, the data folder and engine words as they are", async () => {
    applyLanguage("zh-Hans");
    render(<SettingsDialog onClose={vi.fn()} />);
    expect(screen.getByRole("dialog", { name: "设置" })).toBeTruthy();
    expect((await screen.findByTestId("settings-data-folder")).textContent).toBe(places.data_folder);
    expect(screen.getByTestId("settings-secrets").textContent).toContain("（no Secret Service）");
    const language = screen.getByTestId<HTMLSelectElement>("settings-language");
    expect([...language.options].map((o) => o.textContent)).toEqual(["跟随系统（与桌面一致）", "English", "简体中文"]);
  });

  it("says in English how much clearing the history removed", async () => {
    render(<SettingsDialog onClose={vi.fn()} />);
    expect((await screen.findByTestId("settings-data-folder")).textContent).toBe(places.data_folder);
    fireEvent.click(screen.getByTestId("settings-clear-history"));
    expect((await screen.findByTestId("settings-cleared-history")).textContent).toBe("Removed 1 history entry.");
  });
});
