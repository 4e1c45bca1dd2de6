import { ArrowDownToLine, Search, X } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatNumber } from "../format";
import { TimeOfDayField } from "./TimeOfDayField";
import type { DirectionFilter, KindFilter, StatusFilter } from "../state/trafficFilter";
import { KIND_FILTERS, STATUS_FILTERS } from "./filter";
import { setTrafficView, type TrafficView } from "../state/traffic";
import { TrafficChannelChips } from "./TrafficChannelChips";

interface Props {
  serverId: string;
  view: TrafficView;
  shown: number;
  total: number;
  /** Frames of this server off their revision's schema, and frames the checks skipped. */
  violations: number;
  notChecked: number;
  /** Why the list could not be read, if it could not. */
  error: string | null;
  /** Buttons at the bar's end (the exports). */
  actions?: ReactNode;
}

/** The last µs of a second: a range's end keeps what came during its last second. */
const END_OF_SECOND = 999_999;

/** Search, kind, method, direction, status and time filters, the follow toggle, and how many entries are shown. */
export function TrafficFilterBar({ serverId, view, shown, total, violations, notChecked, error, actions }: Props) {
  const { t } = useTranslation("traffic");
  const set = (change: Partial<TrafficView>) => setTrafficView(serverId, change);
  return (
    <div className="filter-bar traffic-filter-bar">
      <label className="search-field">
        <Search size={14} aria-hidden />
        <input
          type="search"
          data-testid="traffic-filter"
          aria-label={t("filter.label")}
          placeholder={t("filter.placeholder")}
          value={view.text}
          onChange={(e) => set({ text: e.target.value })}
          spellCheck={false}
        />
      </label>
      <select
        data-testid="traffic-kind"
        aria-label={t("filter.kind")}
        value={view.kind}
        onChange={(e) => set({ kind: e.target.value as KindFilter })}
      >
        {KIND_FILTERS.map((kind) => (
          <option key={kind} value={kind}>
            {t(`filter.kinds.${kind}`)}
          </option>
        ))}
      </select>
      <input
        type="text"
        className="method-field"
        data-testid="traffic-method"
        aria-label={t("filter.method")}
        placeholder={t("filter.methodPlaceholder")}
        value={view.method}
        onChange={(e) => set({ method: e.target.value })}
        spellCheck={false}
      />
      <select
        data-testid="traffic-direction"
        aria-label={t("filter.direction")}
        value={view.direction}
        onChange={(e) => set({ direction: e.target.value as DirectionFilter })}
      >
        <option value="all">{t("filter.both")}</option>
        <option value="out">{t("filter.out")}</option>
        <option value="in">{t("filter.in")}</option>
      </select>
      <TrafficChannelChips value={view.channel} onChange={(channel) => set({ channel })} />
      <select
        data-testid="traffic-status"
        aria-label={t("filter.status")}
        value={view.status}
        onChange={(e) => set({ status: e.target.value as StatusFilter })}
      >
        {STATUS_FILTERS.map((status) => (
          <option key={status} value={status}>
            {t(`filter.statuses.${status}`)}
          </option>
        ))}
      </select>
      <span className="time-range" title={t("filter.timeTitle")}>
        <TimeOfDayField
          testId="traffic-from"
          label={t("filter.from")}
          value={view.fromUs}
          onChange={(fromUs) => set({ fromUs })}
        />
        <span aria-hidden>–</span>
        <TimeOfDayField
          testId="traffic-to"
          label={t("filter.to")}
          value={view.toUs === null ? null : view.toUs - END_OF_SECOND}
          // The end of the second typed, so "12:00:05" keeps what came during that second.
          onChange={(to) => set({ toUs: to === null ? null : to + END_OF_SECOND })}
        />
        {(view.fromUs !== null || view.toUs !== null) && (
          <button
            type="button"
            className="icon-button time-clear"
            data-testid="traffic-time-clear"
            aria-label={t("filter.clearTime")}
            title={t("filter.clearTime")}
            onClick={() => set({ fromUs: null, toUs: null })}
          >
            <X size={14} aria-hidden />
          </button>
        )}
      </span>
      <label className="checkbox-label" title={t("filter.followTitle")}>
        <input
          type="checkbox"
          data-testid="traffic-follow"
          checked={view.follow}
          onChange={(e) => set({ follow: e.target.checked })}
        />
        <ArrowDownToLine size={14} aria-hidden />
        {t("filter.follow")}
      </label>
      <span className="spacer" />
      {error !== null && (
        <span className="count-text text-danger" data-testid="traffic-query-error" role="status">
          {t("queryFailed", { error })}
        </span>
      )}
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
