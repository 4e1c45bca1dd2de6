import { ArrowDownToLine, Loader2, Search } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { SPINNER_AFTER_MS, useNow } from "../common/useNow";
import { formatNumber } from "../format";
import type { DirectionFilter, StatusFilter } from "./filter";
import { setTrafficView, type CatchUp, type TrafficView } from "../state/traffic";

interface Props {
  serverId: string;
  view: TrafficView;
  shown: number;
  total: number;
  /** The frames recorded before the UI subscribed, while they are fetched. */
  catchUp: CatchUp | null;
  /** The newest frame's seq known (a live frame may come before the earlier ones). */
  newestSeq: number;
  /** Frames of this server off their revision's schema, and frames the checks skipped. */
  violations: number;
  notChecked: number;
  /** Buttons at the bar's end (the exports). */
  actions?: ReactNode;
}

/** Text and direction filters, the follow toggle, and how many frames are shown. */
export function TrafficFilterBar({ serverId, view, shown, total, catchUp, newestSeq, violations, notChecked, actions }: Props) {
  const { t } = useTranslation("traffic");
  return (
    <div className="filter-bar">
      <label className="search-field">
        <Search size={14} aria-hidden />
        <input
          type="search"
          data-testid="traffic-filter"
          aria-label={t("filter.label")}
          placeholder={t("filter.placeholder")}
          value={view.text}
          onChange={(e) => setTrafficView(serverId, { text: e.target.value })}
          spellCheck={false}
        />
      </label>
      <select
        data-testid="traffic-direction"
        aria-label={t("filter.direction")}
        value={view.direction}
        onChange={(e) => setTrafficView(serverId, { direction: e.target.value as DirectionFilter })}
      >
        <option value="all">{t("filter.both")}</option>
        <option value="out">{t("filter.out")}</option>
        <option value="in">{t("filter.in")}</option>
      </select>
      <select
        data-testid="traffic-status"
        aria-label={t("filter.status")}
        value={view.status}
        onChange={(e) => setTrafficView(serverId, { status: e.target.value as StatusFilter })}
      >
        <option value="all">{t("filter.anyStatus")}</option>
        <option value="schema_violation">{t("filter.schemaViolation")}</option>
      </select>
      <label className="checkbox-label" title={t("filter.followTitle")}>
        <input
          type="checkbox"
          data-testid="traffic-follow"
          checked={view.follow}
          onChange={(e) => setTrafficView(serverId, { follow: e.target.checked })}
        />
        <ArrowDownToLine size={14} aria-hidden />
        {t("filter.follow")}
      </label>
      <span className="spacer" />
      {catchUp && <CatchingUp catchUp={catchUp} newestSeq={newestSeq} />}
      {violations > 0 && (
        <span className="count-text text-warning" data-testid="traffic-violations" title={t("checks.violationsTitle")}>
          {t("checks.violations", { count: violations, n: formatNumber(violations) })}
        </span>
      )}
      {notChecked > 0 && (
        <span className="count-text muted" data-testid="traffic-not-checked" title={t("checks.notCheckedTitle")}>
          {t("checks.notChecked", { count: notChecked, n: formatNumber(notChecked) })}
        </span>
      )}
      <span className="count-text" data-testid="traffic-count">
        {t("count", { count: total, shown: formatNumber(shown), total: formatNumber(total) })}
      </span>
      {actions}
    </div>
  );
}

/**
 * "Loading earlier frames… 15,000 of 20,003" while a large backlog is fetched page by page
 * (nothing for one that takes less than a blink). The total is known only when a live frame
 * said how far the record goes (seqs count the frames from 1).
 */
function CatchingUp({ catchUp, newestSeq }: { catchUp: CatchUp; newestSeq: number }) {
  const { t } = useTranslation("traffic");
  const now = useNow(250);
  if (now - catchUp.startedAt < SPINNER_AFTER_MS) return null;
  const loaded = formatNumber(catchUp.loaded);
  return (
    <span className="count-text busy-text" data-testid="traffic-catching-up" role="status">
      <Loader2 size={12} className="spin" aria-hidden />
      {newestSeq > catchUp.loaded
        ? t("catchUp.of", { loaded, total: formatNumber(newestSeq) })
        : t("catchUp.soFar", { loaded })}
    </span>
  );
}
