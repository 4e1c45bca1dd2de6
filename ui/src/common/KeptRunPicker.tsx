// The kept runs of a view (Load, Evals): which one is shown, which it is compared with, Delete,
// and how many are kept; a view's own buttons (exports) go between.
import { Trash2 } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

interface Props<T> {
  /** The views' test ids start with it: `load`, `evals`. */
  prefix: string;
  runs: T[];
  shown: string;
  baseline: string | null;
  line: (run: T) => string;
  onShow: (id: string) => void;
  onCompare: (id: string | null) => void;
  onDelete: () => void;
  children?: ReactNode;
}

export function KeptRunPicker<T extends { id: string }>({ prefix, runs, shown, baseline, line, onShow, onCompare, onDelete, children }: Props<T>) {
  const { t } = useTranslation("common");
  const others = runs.filter((r) => r.id !== shown);
  return (
    <div className="load-runs" data-testid={`${prefix}-runs`}>
      <label className="load-field">
        {t("keptRuns.shown")}
        <select value={shown} data-testid={`${prefix}-run-pick`} onChange={(event) => onShow(event.target.value)}>
          {runs.map((run) => (
            <option key={run.id} value={run.id}>
              {line(run)}
            </option>
          ))}
        </select>
      </label>
      <label className="load-field">
        {t("keptRuns.compare")}
        <select
          value={baseline ?? ""}
          disabled={others.length === 0}
          data-testid={`${prefix}-compare-pick`}
          onChange={(event) => onCompare(event.target.value || null)}
        >
          <option value="">{t("keptRuns.noCompare")}</option>
          {others.map((run) => (
            <option key={run.id} value={run.id}>
              {line(run)}
            </option>
          ))}
        </select>
      </label>
      {children}
      <button type="button" className="button button-small" data-testid={`${prefix}-delete`} onClick={onDelete}>
        <Trash2 size={14} aria-hidden /> {t("keptRuns.delete")}
      </button>
      <span className="muted small">{t("keptRuns.count", { count: runs.length })}</span>
    </div>
  );
}
