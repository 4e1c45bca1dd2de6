// JSON as a collapsible tree: objects and arrays open to `openDepth` levels, long ones show
// their first children and a button for the rest. Keys and values stay selectable text.
import { ChevronDown, ChevronRight } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import i18n from "../i18n";

/** Children shown before "Show N more". */
export const CHILD_PAGE = 100;

interface Props {
  value: JsonValue;
  /** Levels open at first (the root is level 0). */
  openDepth?: number;
}

export function JsonTree({ value, openDepth = 2 }: Props) {
  return (
    <div className="json-tree mono" data-testid="json-tree" role="tree">
      <JsonNode name={null} value={value} depth={0} openDepth={openDepth} />
    </div>
  );
}

/** A one-line summary of a collapsed container: `{3 keys}`, `[12 items]`. */
export function summary(value: JsonValue): string {
  if (Array.isArray(value)) return `[${i18n.t("content:tree.items", { count: value.length })}]`;
  if (value !== null && typeof value === "object") {
    return `{${i18n.t("content:tree.keys", { count: Object.keys(value).length })}}`;
  }
  return JSON.stringify(value);
}

function Scalar({ value }: { value: JsonValue }) {
  const kind = value === null ? "null" : typeof value;
  return <span className={`json-${kind}`}>{JSON.stringify(value)}</span>;
}

function JsonNode({
  name,
  value,
  depth,
  openDepth,
}: {
  name: string | null;
  value: JsonValue;
  depth: number;
  openDepth: number;
}) {
  const { t } = useTranslation("content");
  const container = value !== null && typeof value === "object";
  const [open, setOpen] = useState(depth < openDepth);
  const [shown, setShown] = useState(CHILD_PAGE);
  const label = name === null ? null : <span className="json-key">{name}: </span>;
  if (!container) {
    return (
      <div className="json-row" role="treeitem">
        <span className="json-toggle-space" />
        {label}
        <Scalar value={value} />
      </div>
    );
  }
  const entries: Array<[string, JsonValue]> = Array.isArray(value)
    ? value.map((v, i) => [String(i), v])
    : Object.entries(value as { [key: string]: JsonValue });
  const empty = entries.length === 0;
  return (
    <div role="treeitem" aria-expanded={empty ? undefined : open}>
      <div className="json-row">
        {empty ? (
          <span className="json-toggle-space" />
        ) : (
          <button
            type="button"
            className="json-toggle"
            data-testid="json-toggle"
            aria-label={t(open ? "tree.collapse" : "tree.expand", { name: name ?? t("tree.root") })}
            onClick={() => setOpen(!open)}
          >
            {open ? <ChevronDown size={12} aria-hidden /> : <ChevronRight size={12} aria-hidden />}
          </button>
        )}
        {label}
        <span className="json-summary">{summary(value)}</span>
      </div>
      {open && !empty && (
        <div className="json-children" role="group">
          {entries.slice(0, shown).map(([key, child]) => (
            <JsonNode key={key} name={key} value={child} depth={depth + 1} openDepth={openDepth} />
          ))}
          {entries.length > shown && (
            <button type="button" className="button button-small json-more" onClick={() => setShown(shown + CHILD_PAGE)}>
              {t("tree.more", { shown: Math.min(CHILD_PAGE, entries.length - shown), rest: entries.length - shown })}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
