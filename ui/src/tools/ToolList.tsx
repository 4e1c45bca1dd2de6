import { useTranslation } from "react-i18next";
import type { ToolInfo } from "./tools";

interface Props {
  tools: ToolInfo[];
  selected: string | null;
  onSelect: (name: string) => void;
}

/** Tool names with their titles or descriptions. */
export function ToolList({ tools, selected, onSelect }: Props) {
  const { t } = useTranslation("tools");
  return (
    <ul className="item-list" aria-label={t("tab.title")}>
      {tools.map((tool) => (
        <li key={tool.name}>
          <button
            type="button"
            className={`item${tool.name === selected ? " selected" : ""}`}
            data-testid="tool-item"
            data-tool-name={tool.name}
            aria-current={tool.name === selected ? "true" : undefined}
            onClick={() => onSelect(tool.name)}
          >
            <span className="item-name mono">{tool.name}</span>
            {(tool.title ?? tool.description) && (
              <span className="item-sub">{tool.title ?? tool.description}</span>
            )}
          </button>
        </li>
      ))}
    </ul>
  );
}
