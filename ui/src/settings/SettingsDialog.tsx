import type { ParseKeys } from "i18next";
import { FolderOpen } from "lucide-react";
import { useEffect, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import type { AppSettings } from "../bindings/AppSettings";
import type { DataPlaces } from "../bindings/DataPlaces";
import type { EraChoice } from "../bindings/EraChoice";
import type { Language } from "../bindings/Language";
import type { Theme } from "../bindings/Theme";
import { CopyButton } from "../common/CopyButton";
import { ErrorBox } from "../common/ErrorBox";
import { Dialog } from "../dialog/Dialog";
import { errorMessage, settingsIpc } from "../ipc";
import { ModelsSection } from "../models/ModelsSection";
import { historyClearedEverywhere } from "../state/saved";
import { appSettings, setAppSettings, timeoutProblem } from "./appSettings";

/** A key of the settings' strings (src/i18n/locales/en/settings.json). */
type SettingsKey = ParseKeys<"settings">;

interface Props {
  onClose: () => void;
}

const THEMES = [
  { value: "system", label: "theme.system" },
  { value: "light", label: "theme.light" },
  { value: "dark", label: "theme.dark" },
] as const satisfies ReadonlyArray<{ value: Theme; label: SettingsKey }>;

const ERAS = [
  { value: "auto", label: "era.auto" },
  { value: "modern", label: "era.modern" },
  { value: "legacy", label: "era.legacy" },
] as const satisfies ReadonlyArray<{ value: EraChoice; label: SettingsKey }>;

/** Each language by its own name, whatever the UI's language ("System" is translated). */
export const LANGUAGE_NAMES: Record<Exclude<Language, "system">, string> = {
  en: "English",
  "zh-Hans": "简体中文",
};

const LANGUAGES: readonly Language[] = ["system", "en", "zh-Hans"];

export function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}

/** What a clearing did, said under its button. */
type Cleared = { history?: string; signIns?: string };

/**
 * The app's settings: the request timeout and the era new servers start with, the theme and the
 * language (both applied at once on save), where the data and the secrets live, and clearing
 * the history and the saved sign-ins (each on its own click, saying what it removed).
 */
export function SettingsDialog({ onClose }: Props) {
  const { t } = useTranslation(["settings", "common"]);
  const [values, setValues] = useState<AppSettings>(appSettings);
  const [timeoutText, setTimeoutText] = useState(String(appSettings().request_timeout_s));
  const [places, setPlaces] = useState<DataPlaces | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [cleared, setCleared] = useState<Cleared>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void settingsIpc.dataPlaces().then(setPlaces, (e: unknown) => setError(errorMessage(e)));
  }, []);

  const timeout = Number(timeoutText);
  const problem = timeoutProblem(timeout);
  const save = async () => {
    if (problem) return;
    const next = { ...values, request_timeout_s: timeout };
    setBusy(true);
    try {
      await settingsIpc.appSettingsSave(next);
      setAppSettings(next);
      onClose();
    } catch (e) {
      setError(errorMessage(e));
    }
    setBusy(false);
  };
  const clear = async (what: keyof Cleared) => {
    try {
      if (what === "history") {
        const n = await settingsIpc.clearAllHistory();
        historyClearedEverywhere();
        setCleared((c) => ({ ...c, history: t("data.clearedHistory", { count: n }) }));
      } else {
        const n = await settingsIpc.clearSignIns();
        setCleared((c) => ({ ...c, signIns: t("data.clearedSignIns", { count: n }) }));
      }
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  return (
    <Dialog
      title={t("title")}
      onClose={onClose}
      testId="settings-dialog"
      bodyClassName="settings-body"
      closeLabel={t("close")}
      dismiss={{ label: t("common:cancel") }}
      footer={
        <button
          type="button"
          className="button button-primary"
          data-testid="settings-save"
          disabled={busy || problem !== null}
          onClick={() => void save()}
        >
          {t("common:save")}
        </button>
      }
    >
      {error && <ErrorBox message={error} />}
      <section className="settings-section">
        <h3>{t("connections.title")}</h3>
        <label className="field">
          <span className="field-label">{t("connections.timeout")}</span>
          <input
            type="number"
            min={1}
            max={3600}
            data-testid="settings-timeout"
            value={timeoutText}
            onChange={(e) => setTimeoutText(e.target.value)}
            aria-invalid={problem !== null}
          />
          <span className="field-hint">
            {problem ?? t("connections.timeoutHint")}
          </span>
        </label>
        <label className="field">
          <span className="field-label">{t("connections.era")}</span>
          <select
            data-testid="settings-era"
            value={values.default_era}
            onChange={(e) => setValues({ ...values, default_era: e.target.value as EraChoice })}
          >
            {ERAS.map((era) => (
              <option key={era.value} value={era.value}>
                {t(era.label)}
              </option>
            ))}
          </select>
        </label>
      </section>
      <section className="settings-section">
        <h3>{t("appearance.title")}</h3>
        <label className="field">
          <span className="field-label">{t("appearance.theme")}</span>
          <select
            data-testid="settings-theme"
            value={values.theme}
            onChange={(e) => setValues({ ...values, theme: e.target.value as Theme })}
          >
            {THEMES.map((theme) => (
              <option key={theme.value} value={theme.value}>
                {t(theme.label)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">{t("appearance.language")}</span>
          <select
            data-testid="settings-language"
            value={values.language}
            onChange={(e) => {
              const language = e.target.value;
              if (isLanguage(language)) setValues({ ...values, language });
            }}
          >
            {LANGUAGES.map((language) => (
              <option key={language} value={language} lang={language === "system" ? undefined : language}>
                {language === "system" ? t("appearance.languageSystem") : LANGUAGE_NAMES[language]}
              </option>
            ))}
          </select>
          <span className="field-hint">{t("appearance.languageHint")}</span>
        </label>
      </section>
      <ModelsSection />
      <section className="settings-section">
        <h3>{t("data.title")}</h3>
        {places && (
          <>
            <p className="settings-place">
              <Trans
                t={t}
                i18nKey="data.folder"
                values={{ folder: places.data_folder }}
                components={{ code: <code data-testid="settings-data-folder" /> }}
              />{" "}
              <CopyButton text={places.data_folder} label={t("data.copyFolder")} />
            </p>
            <button
              type="button"
              className="button button-small"
              data-testid="settings-open-folder"
              onClick={() => void settingsIpc.openDataFolder().catch((e: unknown) => setError(errorMessage(e)))}
            >
              <FolderOpen size={14} aria-hidden />
              {t("data.openFolder")}
            </button>
            <p className="settings-place" data-testid="settings-secrets">
              {places.secrets_in_keychain
                ? t("data.secretsKeychain")
                : places.keychain_unavailable_because
                  ? t("data.secretsFileBecause", {
                      file: places.secrets_file ?? t("data.ownerOnlyFile"),
                      reason: places.keychain_unavailable_because,
                    })
                  : t("data.secretsFile", { file: places.secrets_file ?? t("data.ownerOnlyFile") })}
            </p>
          </>
        )}
        <div className="settings-clear">
          <button type="button" className="button button-small" data-testid="settings-clear-history" onClick={() => void clear("history")}>
            {t("data.clearHistory")}
          </button>
          {cleared.history && <span data-testid="settings-cleared-history">{cleared.history}</span>}
        </div>
        <div className="settings-clear">
          <button type="button" className="button button-small" data-testid="settings-clear-sign-ins" onClick={() => void clear("signIns")}>
            {t("data.clearSignIns")}
          </button>
          {cleared.signIns && <span data-testid="settings-cleared-sign-ins">{cleared.signIns}</span>}
        </div>
      </section>
    </Dialog>
  );
}
