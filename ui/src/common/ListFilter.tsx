import { Search } from "lucide-react";
import { useTranslation } from "react-i18next";

/** The box that filters a list of a server's items, with how many it keeps (its own ⌫ and
 * Escape clear it). */
export function ListFilter({
  value,
  onChange,
  shown,
  total,
  placeholder,
  testId,
}: {
  value: string;
  onChange: (value: string) => void;
  shown: number;
  total: number;
  placeholder: string;
  testId: string;
}) {
  const { t } = useTranslation("common");
  return (
    <div className="list-filter">
      <label className="search-field">
        <Search size={14} aria-hidden />
        <input
          type="search"
          data-testid={testId}
          placeholder={placeholder}
          aria-label={placeholder}
          value={value}
          spellCheck={false}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={(event) => {
            // Escape clears the filter first; a second Escape goes to whatever holds the page.
            if (event.key === "Escape" && value !== "") {
              event.stopPropagation();
              onChange("");
            }
          }}
        />
      </label>
      {value !== "" && (
        <span className="list-filter-count muted small" data-testid={`${testId}-count`}>
          {t("listFilter.count", { shown, total })}
        </span>
      )}
    </div>
  );
}
