// The generated form's buttons, drawn with the app's icons (the default theme expects
// Bootstrap 3 glyph fonts, which the app does not load). Their words come from the form's
// translateString (rjsfStrings.ts), in the UI's language.
import type { FormProps } from "@rjsf/core";
import { TranslatableString, type IconButtonProps } from "@rjsf/utils";
import { ArrowDown, ArrowUp, Copy, Plus, X } from "lucide-react";
import type { ReactNode } from "react";

function iconButton(icon: ReactNode, label: TranslatableString, className = "") {
  function FormIconButton(props: IconButtonProps) {
    // Registry and schema props are for themes; only the button's own props reach the DOM.
    const { id, onClick, disabled, title, style, registry } = props;
    const text = title ?? registry.translateString(label);
    return (
      <button
        type="button"
        id={id}
        className={`icon-button ${className}`}
        onClick={onClick}
        disabled={disabled}
        title={text}
        aria-label={text}
        style={style}
      >
        {icon}
      </button>
    );
  }
  return FormIconButton;
}

function AddButton(props: IconButtonProps) {
  const { id, onClick, disabled, className, registry } = props;
  return (
    <button
      type="button"
      id={id}
      className={`button button-small form-add ${className ?? ""}`}
      onClick={onClick}
      disabled={disabled}
    >
      <Plus size={14} aria-hidden />
      {registry.translateString(TranslatableString.AddButton)}
    </button>
  );
}

export const formTemplates: FormProps["templates"] = {
  ButtonTemplates: {
    AddButton,
    CopyButton: iconButton(<Copy size={13} aria-hidden />, TranslatableString.CopyButton),
    MoveDownButton: iconButton(<ArrowDown size={13} aria-hidden />, TranslatableString.MoveDownButton),
    MoveUpButton: iconButton(<ArrowUp size={13} aria-hidden />, TranslatableString.MoveUpButton),
    RemoveButton: iconButton(<X size={13} aria-hidden />, TranslatableString.RemoveButton, "danger"),
    ClearButton: iconButton(<X size={13} aria-hidden />, TranslatableString.ClearButton),
    // The Call button is passed as the form's child; this one is never drawn.
    SubmitButton: () => null,
  },
};
