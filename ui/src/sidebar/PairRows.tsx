// The environment variables or headers of the server form, one row each: name, value, whether
// the value is a secret (kept in the OS keychain, never in the catalog), a button to show a
// secret, and one to remove the row. A secret is masked; a stored one is fetched from the
// keychain only when the user asks to see it.
import { Eye, EyeOff, Plus, X } from "lucide-react";
import { useState, type ClipboardEvent } from "react";
import { errorMessage } from "../ipc";
import { editRow, emptyRow, rowsFromText, type PairKind, type PairRow } from "./serverForm";

interface Props {
  kind: PairKind;
  /** The element id the form's label points at (the first name field). */
  id: string;
  testId: string;
  rows: PairRow[];
  onChange: (rows: PairRow[]) => void;
  /** The stored value of a secret, for "show" (none when the entry is new). */
  reveal?: (name: string) => Promise<string | null>;
}

const WORDS = {
  env: { name: "NAME", value: "value", add: "Add variable", row: "variable" },
  header: { name: "Header-Name", value: "value", add: "Add header", row: "header" },
} as const;

export function PairRows({ kind, id, testId, rows, onChange, reveal }: Props) {
  const [shown, setShown] = useState<ReadonlySet<number>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const words = WORDS[kind];
  const part = (name: string, index: number) => `${testId}-${name}-${index}`;

  const replace = (index: number, row: PairRow) => onChange(rows.map((r, i) => (i === index ? row : r)));
  const remove = (index: number) => {
    onChange(rows.filter((_, i) => i !== index));
    setShown(new Set());
  };

  /** The stored value of a secret row whose value was not typed here; null when it failed. */
  const fetchStored = async (row: PairRow): Promise<string | null> => {
    try {
      return (await reveal?.(row.name)) ?? "";
    } catch (e) {
      setError(`Could not read the secret ${row.name}: ${errorMessage(e)}`);
      return null;
    }
  };
  const needsFetch = (row: PairRow) => row.value === "" && row.stored && reveal !== undefined;

  const toggleShown = (index: number) => {
    const row = rows[index];
    if (!row) return;
    if (shown.has(index)) {
      setShown((s) => new Set([...s].filter((i) => i !== index)));
      return;
    }
    const show = () => setShown((s) => new Set(s).add(index));
    if (!needsFetch(row)) {
      show();
      return;
    }
    void fetchStored(row).then((value) => {
      if (value === null) return;
      replace(index, { ...row, value });
      show();
    });
  };

  const toggleSecret = (index: number) => {
    const row = rows[index];
    if (!row) return;
    if (!row.secret) {
      replace(index, { ...row, secret: true, secretChosen: true });
      return;
    }
    // No longer secret: the value goes into the catalog, so it must be known here first.
    const plain = (value: string) => replace(index, { ...row, value, secret: false, secretChosen: true, stored: false });
    if (!needsFetch(row)) {
      plain(row.value);
      return;
    }
    void fetchStored(row).then((value) => {
      if (value !== null) plain(value);
    });
  };

  /** Several `KEY=VALUE` (or `Name: value`) lines pasted into a name become rows. */
  const paste = (index: number, event: ClipboardEvent<HTMLInputElement>) => {
    const text = event.clipboardData.getData("text");
    const separator = kind === "env" ? "=" : ":";
    if (!text.includes("\n") && !text.includes(separator)) return;
    const { rows: pasted, errors } = rowsFromText(kind, text);
    if (pasted.length === 0) return;
    event.preventDefault();
    const current = rows[index];
    const keep = !current || (current.name === "" && current.value === "") ? [] : [current];
    onChange([...rows.slice(0, index), ...keep, ...pasted, ...rows.slice(index + 1)]);
    setError(errors.length > 0 ? errors.join(" ") : null);
  };

  return (
    <div className="pair-rows" data-testid={testId}>
      {rows.map((row, index) => {
        const masked = row.secret && !shown.has(index);
        return (
          <div className="pair-row" key={index} data-secret={row.secret}>
            <input
              id={index === 0 ? id : undefined}
              data-testid={part("name", index)}
              className="mono"
              spellCheck={false}
              aria-label={`Name of ${words.row} ${index + 1}`}
              placeholder={words.name}
              value={row.name}
              onChange={(e) => replace(index, editRow(row, { name: e.target.value }))}
              onPaste={(e) => paste(index, e)}
            />
            <input
              data-testid={part("value", index)}
              className="mono"
              spellCheck={false}
              autoComplete="off"
              type={masked ? "password" : "text"}
              aria-label={`Value of ${words.row} ${index + 1}`}
              placeholder={row.stored && row.value === "" ? "stored in the keychain" : words.value}
              value={row.value}
              onChange={(e) => replace(index, editRow(row, { value: e.target.value }))}
            />
            <button
              type="button"
              className="icon-button"
              data-testid={part("show", index)}
              disabled={!row.secret}
              aria-label={masked ? "Show the value" : "Hide the value"}
              title={masked ? "Show the value" : "Hide the value"}
              onClick={() => toggleShown(index)}
            >
              {masked ? <Eye size={14} aria-hidden /> : <EyeOff size={14} aria-hidden />}
            </button>
            <label className="checkbox-label" title="Keep the value in the OS keychain, never in the catalog">
              <input
                type="checkbox"
                data-testid={part("secret", index)}
                checked={row.secret}
                onChange={() => toggleSecret(index)}
              />
              secret
            </label>
            <button
              type="button"
              className="icon-button danger"
              data-testid={part("remove", index)}
              aria-label={`Remove ${words.row} ${index + 1}`}
              title="Remove"
              onClick={() => remove(index)}
            >
              <X size={14} aria-hidden />
            </button>
          </div>
        );
      })}
      <button
        type="button"
        className="button button-small pair-add"
        data-testid={`${testId}-add`}
        onClick={() => onChange([...rows, emptyRow])}
      >
        <Plus size={14} aria-hidden />
        {words.add}
      </button>
      {error && <p className="pair-error">{error}</p>}
    </div>
  );
}
