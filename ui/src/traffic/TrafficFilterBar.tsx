import { ArrowDownToLine, Search } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatNumber } from "../format";
import { KIND_FILTERS, STATUS_FILTERS, type DirectionFilter, type KindFilter, type StatusFilter } from "./filter";
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

/** "HH:MM:SS" today (local time) as µs since the epoch; null when empty. */
export function timeOfDayUs(value: string, today: Date = new Date()): number | null {
  const match = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!match) return null;
  const at = new Date(today);
  at.setHours(Number(match[1]), Number(match[2]), Number(match[3] ?? 0), 0);
  return at.getTime() * 1000;
}

/** µs since the epoch as "HH:MM:SS" local time (what a time input shows). */
export function usToTimeOfDay(us: number | null): string {
  if (us === null) return "";
  const at = new Date(us / 1000);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}`;
}

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
        <input
          type="time"
          step={1}
          data-testid="traffic-from"
          aria-label={t("filter.from")}
          value={usToTimeOfDay(view.fromUs)}
          onChange={(e) => set({ fromUs: timeOfDayUs(e.target.value) })}
        />
        <span aria-hidden>–</span>
        <input
          type="time"
          step={1}
          data-testid="traffic-to"
          aria-label={t("filter.to")}
          value={usToTimeOfDay(view.toUs)}
          onChange={(e) => {
            const to = timeOfDayUs(e.target.value);
            // The end of the second typed, so "12:00:05" keeps what came during that second.
            set({ toUs: to === null ? null : to + 999_999 });
          }}
        />
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
