// The environment variables or headers of the server form, one row each: name, value, whether
// the value is a secret (kept in the OS keychain, never in the catalog), a button to show a
// secret, and one to remove the row. A secret is masked; a stored one is fetched from the
// keychain only when the user asks to see it. Until the user ticks or unticks it, a row is
// secret when the engine guesses so from its name and value (`secret_hints`).
import { Eye, EyeOff, Plus, X } from "lucide-react";
import { useEffect, useState, type ClipboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage, ipc } from "../ipc";
import {
  editRow,
  emptyRow,
  guessedPairs,
  rowsFromText,
  withSecretGuesses,
  type PairKind,
  type PairRow,
} from "./serverForm";

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

// The name fields' placeholders: the shape of a name, the same in every language.
const NAME_EXAMPLE = { env: "NAME", header: "Header-Name" } as const;

export function PairRows({ kind, id, testId, rows, onChange, reveal }: Props) {
  const [shown, setShown] = useState<ReadonlySet<number>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const { t } = useTranslation(["sidebar", "common"]);
  const part = (name: string, index: number) => `${testId}-${name}-${index}`;

  // The engine's guess for the rows the user has not chosen for; an answer for rows since
  // edited is dropped (the edit asks again), and no answer leaves the flags as they are.
  useEffect(() => {
    const pairs = guessedPairs(rows);
    if (pairs.length === 0) return;
    let current = true;
    ipc.secretHints(pairs).then(
      (guesses) => {
        const next = withSecretGuesses(rows, guesses);
        if (current && next !== rows) onChange(next);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [rows, onChange]);

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
      setError(t("pairs.readFailed", { name: row.name, error: errorMessage(e) }));
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
              aria-label={kind === "env" ? t("pairs.env.name", { n: index + 1 }) : t("pairs.header.name", { n: index + 1 })}
              placeholder={NAME_EXAMPLE[kind]}
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
              aria-label={kind === "env" ? t("pairs.env.value", { n: index + 1 }) : t("pairs.header.value", { n: index + 1 })}
              placeholder={row.stored && row.value === "" ? t("pairs.stored") : t("pairs.valuePlaceholder")}
              value={row.value}
              onChange={(e) => replace(index, editRow(row, { value: e.target.value }))}
            />
            <button
              type="button"
              className="icon-button"
              data-testid={part("show", index)}
              disabled={!row.secret}
              aria-label={masked ? t("pairs.show") : t("pairs.hide")}
              title={masked ? t("pairs.show") : t("pairs.hide")}
              onClick={() => toggleShown(index)}
            >
              {masked ? <Eye size={14} aria-hidden /> : <EyeOff size={14} aria-hidden />}
            </button>
            <label className="checkbox-label" title={t("pairs.secretTitle")}>
              <input
                type="checkbox"
                data-testid={part("secret", index)}
                checked={row.secret}
                onChange={() => toggleSecret(index)}
              />
              {t("pairs.secret")}
            </label>
            <button
              type="button"
              className="icon-button danger"
              data-testid={part("remove", index)}
              aria-label={kind === "env" ? t("pairs.env.remove", { n: index + 1 }) : t("pairs.header.remove", { n: index + 1 })}
              title={t("common:remove")}
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
        {kind === "env" ? t("pairs.env.add") : t("pairs.header.add")}
      </button>
      {error && <p className="pair-error">{error}</p>}
    </div>
  );
}
