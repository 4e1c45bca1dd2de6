// The UI's translations (i18next with react-i18next): components call `useTranslation(ns)`,
// code outside components `i18n.t("ns:key")`. English until the settings are read; then the
// language in Settings, or the desktop's for "system" (language.ts).
import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import { resources } from "./resources";
import type { Shipped } from "./language";

void i18n.use(initReactI18next).init({
  resources,
  lng: "en",
  fallbackLng: "en",
  supportedLngs: ["en", "zh-Hans"],
  defaultNS: "common",
  ns: Object.keys(resources.en),
  // React escapes what it renders; escaping here too would show "&amp;".
  interpolation: { escapeValue: false },
  // Resources are bundled: initialised before the first render.
  initAsync: false,
});

/** Shows the UI in `language` from the next render on. */
export function applyLanguage(language: Shipped): void {
  void i18n.changeLanguage(language);
  document.documentElement.lang = language;
}

export default i18n;
