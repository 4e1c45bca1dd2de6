import { useState } from "react";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../common/EmptyState";

type Kind = "tools" | "resources" | "prompts";

const field = (item: unknown, name: string): string | undefined => {
  if (typeof item !== "object" || item === null) return undefined;
  const value = (item as Record<string, unknown>)[name];
  return typeof value === "string" ? value : undefined;
};

/** One item: its name (or URI), its description, and its JSON on demand. */
function Item({ item, keyField }: { item: unknown; keyField: string }) {
  const [open, setOpen] = useState(false);
  const name = field(item, keyField) ?? field(item, "name") ?? "?";
  const description = field(item, "description");
  return (
    <li className="recorded-item" data-testid="recorded-item" data-name={name}>
      <button type="button" className="recorded-item-head" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="mono">{name}</span>
        {description && <span className="muted"> — {description}</span>}
      </button>
      {open && <pre className="mono recorded-item-json">{JSON.stringify(item, null, 2)}</pre>}
    </li>
  );
}

/**
 * A list as the session last fetched it in full (the engine's diff `Surface`): names,
 * descriptions and the raw items. No Call, Read or Get: it is a recording.
 */
export function RecordedList({ kind, items, templates }: { kind: Kind; items: unknown[] | null; templates?: unknown[] | null }) {
  const { t } = useTranslation("recordings");
  const keyField = kind === "resources" ? "uri" : "name";
  return (
    <div className="scroll-area recorded-list" data-testid={`recorded-${kind}`}>
      <p className="muted" data-testid="recorded-read-only-note">
        {t("list.readOnly")}
      </p>
      {items === null ? (
        <EmptyState testId="recorded-never-listed">{t("list.neverListed")}</EmptyState>
      ) : items.length === 0 ? (
        <EmptyState testId="recorded-empty">{t("list.empty")}</EmptyState>
      ) : (
        <ul className="recorded-items">
          {items.map((item, i) => (
            <Item key={i} item={item} keyField={keyField} />
          ))}
        </ul>
      )}
      {templates && templates.length > 0 && (
        <>
          <h2 className="section-title">{t("list.templates")}</h2>
          <ul className="recorded-items">
            {templates.map((item, i) => (
              <Item key={i} item={item} keyField="uriTemplate" />
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
