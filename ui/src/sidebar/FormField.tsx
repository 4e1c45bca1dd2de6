// One labelled text field of the server form: the label (with an optional hint) and an input,
// or a textarea when it has rows.
import type { ChangeEvent } from "react";

interface Props {
  /** The element id (the label points at it). */
  id: string;
  testId: string;
  label: string;
  hint?: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  /** A textarea of this many rows; an input without. */
  rows?: number;
  placeholder?: string;
  /** Monospaced, without spell checking (commands, URLs, keys); true unless said. */
  code?: boolean;
  autoFocus?: boolean;
  type?: "text" | "password";
}

export function FormField({ id, testId, label, hint, value, onChange, rows, placeholder, code = true, autoFocus, type }: Props) {
  const shared = {
    id,
    "data-testid": testId,
    className: code ? "mono" : undefined,
    value,
    onChange,
    placeholder,
    spellCheck: code ? false : undefined,
  };
  return (
    <>
      <label htmlFor={id}>
        {label}
        {hint && <span className="field-hint">{hint}</span>}
      </label>
      {rows === undefined ? (
        <input {...shared} autoFocus={autoFocus} type={type} autoComplete={type === "password" ? "off" : undefined} />
      ) : (
        <textarea {...shared} rows={rows} />
      )}
    </>
  );
}
