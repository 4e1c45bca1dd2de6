import { useTranslation } from "react-i18next";
import { ItemList } from "../common/ItemList";
import { NameText } from "../common/NameText";
import { ServerText } from "../common/ServerText";
import type { ToolInfo } from "./tools";

interface Props {
  tools: readonly ToolInfo[];
  selected: string | null;
  onSelect: (name: string) => void;
  /** Tools that changed since they were pinned: marked. */
  changed?: ReadonlySet<string>;
}

/** Tool names with their titles or descriptions (windowed when there are many). */
export function ToolList({ tools, selected, onSelect, changed }: Props) {
  const { t } = useTranslation("tools");
  return (
    <ItemList
      items={tools}
      keyOf={(tool) => tool.name}
      label={t("tab.title")}
      selected={selected}
      render={(tool) => (
        <button
          type="button"
          className={`item${tool.name === selected ? " selected" : ""}`}
          data-testid="tool-item"
          data-tool-name={tool.name}
          aria-current={tool.name === selected ? "true" : undefined}
          onClick={() => onSelect(tool.name)}
        >
          <span className="item-name mono">
            <NameText name={tool.name} odd={tool.oddLetters} />
            {changed?.has(tool.name) && (
              <span className="badge badge-changed" title={t("pins.changedHint")} data-testid="tool-changed-badge">
                {t("pins.changed")}
              </span>
            )}
          </span>
          {(tool.title ?? tool.description) && (
            <span className="item-sub">
              <ServerText text={tool.title ?? tool.description ?? ""} />
            </span>
          )}
        </button>
      )}
    />
  );
}
