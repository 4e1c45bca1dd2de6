import { useId, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import type { Completion } from "../bindings/Completion";
import { useCompletion } from "./useCompletion";

interface Props {
  value: string;
  onChange: (value: string) => void;
  /** Asks the server for suggestions; null when the server offers no completions. */
  fetch: ((value: string) => Promise<Completion>) | null;
  /** Changes when what is completed changes (e.g. another argument's value). */
  completionKey: string;
  testId: string;
  name: string;
  required?: boolean;
  placeholder?: string;
}

/** A text field with the server's suggestions under it (arrow keys, Enter, Escape, or a click). */
export function CompletionInput({ value, onChange, fetch, completionKey, testId, name, required, placeholder }: Props) {
  const { t } = useTranslation("completion");
  const [focused, setFocused] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const [highlight, setHighlight] = useState(-1);
  const listId = useId();
  const completion = useCompletion(
    fetch ?? (() => Promise.resolve({ values: [], total: null, has_more: false })),
    value,
    completionKey,
    focused && fetch !== null,
  );
  const suggestions = completion.values.filter((v) => v !== value);
  const open = focused && !dismissed && suggestions.length > 0;

  const pick = (suggestion: string) => {
    onChange(suggestion);
    setDismissed(true);
    setHighlight(-1);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (!open) return;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      setHighlight((h) => (h + step + suggestions.length) % suggestions.length);
    } else if (event.key === "Enter" && highlight >= 0 && highlight < suggestions.length) {
      event.preventDefault();
      pick(suggestions[highlight]!);
    } else if (event.key === "Escape") {
      setDismissed(true);
    }
  };

  return (
    <div className="completion">
      <input
        data-testid={testId}
        data-arg-name={name}
        value={value}
        placeholder={placeholder}
        aria-required={required}
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => {
          onChange(e.target.value);
          setDismissed(false);
          setHighlight(-1);
        }}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
        onKeyDown={onKeyDown}
      />
      {open && (
        <ul className="completion-list" id={listId} role="listbox" data-testid="completion-list">
          {suggestions.map((s, i) => (
            <li key={s} role="option" aria-selected={i === highlight}>
              <button
                type="button"
                className={`completion-option${i === highlight ? " highlighted" : ""}`}
                data-testid="completion-option"
                data-value={s}
                tabIndex={-1}
                // Keep the focus in the field: a click picks without a blur first.
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pick(s)}
              >
                {s}
              </button>
            </li>
          ))}
          {completion.more && <li className="completion-more muted small">{t("more")}</li>}
        </ul>
      )}
      {focused && completion.error && <span className="field-hint">{t("error", { error: completion.error })}</span>}
    </div>
  );
}
