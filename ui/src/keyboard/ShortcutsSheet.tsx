import { Trans, useTranslation } from "react-i18next";
import { Dialog } from "../dialog/Dialog";
import "../styles/keyboard.css";
import { closeOverlay, useOverlay } from "./overlays";
import { BUILT_IN_KEYS, isMac, SHORTCUTS, shortcutLabels } from "./shortcuts";

/** The shortcuts sheet (`?`): read from the same table the key handler uses. */
export function ShortcutsSheet() {
  const { t } = useTranslation(["keyboard", "common"]);
  const open = useOverlay() === "shortcuts";
  const mac = isMac();
  if (!open) return null;
  return (
    <Dialog title={t("sheet.title")} onClose={closeOverlay} testId="shortcuts-sheet">
      <table className="shortcut-table">
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.action} data-testid="shortcut-row" data-action={s.action}>
              <td className="shortcut-keys">
                {shortcutLabels(s, mac).map((label) => (
                  <kbd key={label} className="kbd">
                    {label}
                  </kbd>
                ))}
              </td>
              <td>{t(s.description)}</td>
            </tr>
          ))}
          {BUILT_IN_KEYS.map((k) => (
            <tr key={k.keys}>
              <td className="shortcut-keys">
                <kbd className="kbd">{t(k.keys)}</kbd>
              </td>
              <td>{t(k.description)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted small">
        <Trans t={t} i18nKey="sheet.note" components={{ kbd: <kbd className="kbd" /> }} />
      </p>
    </Dialog>
  );
}
