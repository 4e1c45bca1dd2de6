// The generated form's buttons, drawn with the app's icons (the default theme expects
// Bootstrap 3 glyph fonts, which the app does not load).
import type { FormProps } from "@rjsf/core";
import type { IconButtonProps } from "@rjsf/utils";
import { ArrowDown, ArrowUp, Copy, Plus, X } from "lucide-react";
import type { ReactNode } from "react";

function iconButton(icon: ReactNode, label: string, className = "") {
  function FormIconButton(props: IconButtonProps) {
    // Registry and schema props are for themes; only the button's own props reach the DOM.
    const { id, onClick, disabled, title, style } = props;
    return (
      <button
        type="button"
        id={id}
        className={`icon-button ${className}`}
        onClick={onClick}
        disabled={disabled}
        title={title ?? label}
        aria-label={title ?? label}
        style={style}
      >
        {icon}
      </button>
    );
  }
  return FormIconButton;
}

function AddButton(props: IconButtonProps) {
  const { id, onClick, disabled, className } = props;
  return (
    <button
      type="button"
      id={id}
      className={`button button-small form-add ${className ?? ""}`}
      onClick={onClick}
      disabled={disabled}
    >
      <Plus size={14} aria-hidden />
      Add
    </button>
  );
}

export const formTemplates: FormProps["templates"] = {
  ButtonTemplates: {
    AddButton,
    CopyButton: iconButton(<Copy size={13} aria-hidden />, "Copy"),
    MoveDownButton: iconButton(<ArrowDown size={13} aria-hidden />, "Move down"),
    MoveUpButton: iconButton(<ArrowUp size={13} aria-hidden />, "Move up"),
    RemoveButton: iconButton(<X size={13} aria-hidden />, "Remove", "danger"),
    ClearButton: iconButton(<X size={13} aria-hidden />, "Clear"),
    // The Call button is passed as the form's child; this one is never drawn.
    SubmitButton: () => null,
  },
};
