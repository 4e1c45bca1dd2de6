import * as Dialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import { Trans, useTranslation } from "react-i18next";
import "../styles/keyboard.css";
import { closeOverlay, useOverlay } from "./overlays";
import { BUILT_IN_KEYS, isMac, SHORTCUTS, shortcutLabels } from "./shortcuts";

/** The shortcuts sheet (`?`): read from the same table the key handler uses. */
export function ShortcutsSheet() {
  const { t } = useTranslation(["keyboard", "common"]);
  const open = useOverlay() === "shortcuts";
  const mac = isMac();
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && closeOverlay()}>
      <Dialog.Portal>
        <Dialog.Overlay className="modal-backdrop" />
        <Dialog.Content className="modal sheet" data-testid="shortcuts-sheet" aria-describedby={undefined}>
          <header className="modal-header">
            <Dialog.Title>{t("sheet.title")}</Dialog.Title>
            <Dialog.Close className="icon-button" aria-label={t("common:close")} title={t("common:close")}>
              <X size={16} aria-hidden />
            </Dialog.Close>
          </header>
          <div className="modal-body">
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
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
