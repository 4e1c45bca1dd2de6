import { Command, House, Info, Keyboard, Settings, ShieldCheck } from "lucide-react";
import { useTranslation } from "react-i18next";
import { select } from "../state/connections";
import { openOverlay } from "./overlays";
import { hintFor, isMac } from "./shortcuts";

/**
 * Small buttons at the foot of the sidebar: the welcome view (no server selected), the palette,
 * the shortcuts sheet, the audit of every connected server, Settings, About.
 */
export function AppMenu() {
  const { t } = useTranslation("keyboard");
  const mac = isMac();
  const palette = t("menu.palette", { keys: hintFor("palette", mac) ?? "" });
  const sheet = t("menu.shortcuts", { keys: hintFor("shortcuts", mac) ?? "" });
  return (
    <nav className="app-menu" aria-label={t("menu.label")}>
      <button type="button" className="icon-button" data-testid="open-welcome" aria-label={t("menu.welcome")} title={t("menu.welcome")} onClick={() => select(null)}>
        <House size={14} aria-hidden />
      </button>
      <button type="button" className="icon-button" data-testid="open-palette" aria-label={palette} title={palette} onClick={() => openOverlay("palette")}>
        <Command size={14} aria-hidden />
      </button>
      <button type="button" className="icon-button" data-testid="open-shortcuts" aria-label={sheet} title={sheet} onClick={() => openOverlay("shortcuts")}>
        <Keyboard size={14} aria-hidden />
      </button>
      <button type="button" className="icon-button" data-testid="open-audit-connected" aria-label={t("menu.auditConnected")} title={t("menu.auditConnected")} onClick={() => openOverlay("audit")}>
        <ShieldCheck size={14} aria-hidden />
      </button>
      <button type="button" className="icon-button" data-testid="settings-button" aria-label={t("menu.settings")} title={t("menu.settings")} onClick={() => openOverlay("settings")}>
        <Settings size={14} aria-hidden />
      </button>
      <button type="button" className="icon-button" data-testid="open-about" aria-label={t("menu.about")} title={t("menu.about")} onClick={() => openOverlay("about")}>
        <Info size={14} aria-hidden />
      </button>
    </nav>
  );
}
