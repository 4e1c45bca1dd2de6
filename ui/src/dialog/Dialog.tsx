// The one shell of the app's modal dialogs: a backdrop (a press on it closes), the panel with its
// title bar and close button, the body, and an optional footer for the dialog's buttons. Escape
// closes the dialog on top; the focus stays inside while it is open and goes back on close.
import { X } from "lucide-react";
import { useRef, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { keepTabInside, useDialogFocus } from "./useDialogFocus";
import { useEscapeToClose } from "./useEscapeToClose";

interface Props {
  /** The title bar's text, and the dialog's accessible name. */
  title: string;
  onClose: () => void;
  testId?: string;
  /** Classes beside `modal` (`modal-wide`). */
  className?: string;
  /** Classes beside `modal-body` (a layout of the dialog's own). */
  bodyClassName?: string;
  /** The close button's name, when "Close" alone would not say what closes. */
  closeLabel?: string;
  /** Under the body, outside its scrolling: notes and errors that must stay in sight. */
  aside?: ReactNode;
  /** The footer's plain button that closes the dialog ("Close", "Cancel"), before its own buttons. */
  dismiss?: { label: string; testId?: string };
  /** The dialog's own buttons, at the end of the footer. */
  footer?: ReactNode;
  /** Given, the panel is a form: Enter in one of its fields submits it. */
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}

export function Dialog({ title, onClose, testId, className, bodyClassName, closeLabel, aside, dismiss, footer, onSubmit, children }: Props) {
  const { t } = useTranslation("common");
  const panel = useRef<HTMLElement | null>(null);
  useEscapeToClose(onClose);
  useDialogFocus(panel);
  const close = closeLabel ?? t("close");
  const panelProps = {
    ref: (element: HTMLElement | null) => {
      panel.current = element;
    },
    className: className ? `modal ${className}` : "modal",
    role: "dialog",
    "aria-modal": true,
    "aria-label": title,
    "data-testid": testId,
    tabIndex: -1,
    onKeyDown: keepTabInside,
  } as const;
  const content = (
    <>
      <header className="modal-header">
        <h2>{title}</h2>
        <button type="button" className="icon-button" onClick={onClose} aria-label={close} title={close}>
          <X size={16} aria-hidden />
        </button>
      </header>
      <div className={bodyClassName ? `modal-body ${bodyClassName}` : "modal-body"}>{children}</div>
      {aside}
      {(dismiss || footer) && (
        <footer className="modal-footer">
          {dismiss && (
            <button type="button" className="button" data-testid={dismiss.testId} onClick={onClose}>
              {dismiss.label}
            </button>
          )}
          {footer}
        </footer>
      )}
    </>
  );
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      {onSubmit ? (
        <form {...panelProps} onSubmit={onSubmit}>
          {content}
        </form>
      ) : (
        <div {...panelProps}>{content}</div>
      )}
    </div>
  );
}
