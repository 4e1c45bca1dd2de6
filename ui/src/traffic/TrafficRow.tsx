import { ArrowDownLeft, ArrowUpRight, Flag as FlagIcon, TriangleAlert } from "lucide-react";
import { memo, type Ref } from "react";
import { useTranslation } from "react-i18next";
import type { TrafficRow as Row } from "../bindings/TrafficRow";
import { formatBytes, formatLatency, formatTime } from "../format";
import { AppBadge } from "./AppBadge";
import { describeFlag, kindLabel } from "./describe";
import { shownId } from "./idText";
import { roundLabel } from "./rounds";

interface Props {
  row: Row;
  selected: boolean;
  /** Offset from the top of the list, in px. */
  top: number;
  height: number;
  onSelect: (seq: number) => void;
}

/** One entry (a frame, a stderr line, an HTTP exchange), on one 28px line. */
export const TrafficRow = memo(function TrafficRow({ row, selected, top, height, onSelect }: Props) {
  const { t } = useTranslation("traffic");
  const flags = row.flags;
  // Which round of a multi round-trip call the frame is ("round 2 of #3"), if it is one.
  const round = row.round === null ? null : roundLabel(row.round);
  const warnings = [
    ...(row.problem ? [t("row.malformed", { problem: row.problem })] : []),
    ...(flags ?? []).map(describeFlag),
  ];
  return (
    <div
      className={`log-row traffic-row kind-${row.kind}${selected ? " selected" : ""}${warnings.length ? " warned" : ""}`}
      style={{ transform: `translateY(${top}px)`, height }}
      role="row"
      aria-selected={selected}
      data-testid="traffic-row"
      data-seq={row.seq}
      data-method={row.method ?? ""}
      data-kind={row.kind}
      data-direction={row.direction}
      data-app-view={row.app_view ?? undefined}
      data-latency-us={row.latency_us ?? undefined}
      onClick={() => onSelect(row.seq)}
      title={row.preview}
    >
      <span className="col-seq">{row.seq}</span>
      <span className={`col-dir dir-${row.direction}`} title={row.direction === "out" ? t("row.toServer") : t("row.fromServer")}>
        {row.direction === "out" || row.direction === "to_app" ? (
          <ArrowUpRight size={14} aria-label={t("row.out")} />
        ) : (
          <ArrowDownLeft size={14} aria-label={t("row.in")} />
        )}
      </span>
      <span className="col-time">{formatTime(row.wall_us)}</span>
      <span className="col-kind">
        <span className={`kind-badge kind-${row.kind}`}>{kindLabel(row.kind)}</span>
      </span>
      <span className={`col-method${round !== null ? " with-chip" : ""}`}>
        <AppBadge view={row.app_view} />
        <span className="method-text">{row.method ?? <span className="muted">{row.preview}</span>}</span>
        {round !== null && (
          <span className="round-chip" data-testid="round-chip" data-round-label={round} title={t("round.title", { round })}>
            {round}
          </span>
        )}
      </span>
      <span className="col-id" title={row.id ?? undefined}>
        {row.id === null ? "" : shownId(row.id)}
      </span>
      <span className="col-size">{formatBytes(row.size)}</span>
      <span className="col-latency">{row.latency_us === null ? "" : formatLatency(row.latency_us)}</span>
      <span className="col-warn" title={warnings.join("\n") || undefined}>
        {row.problem ? (
          <TriangleAlert size={14} aria-label={t("row.malformedIcon")} className="warn-icon" />
        ) : flags.length > 0 ? (
          <FlagIcon size={14} aria-label={t("row.flaggedIcon")} className="warn-icon" />
        ) : null}
      </span>
    </div>
  );
});

/** A row whose page is on its way: the line keeps its place. */
export function TrafficRowLoading({ top, height }: { top: number; height: number }) {
  return (
    <div
      className="log-row traffic-row loading"
      style={{ transform: `translateY(${top}px)`, height }}
      role="row"
      aria-busy
      data-testid="traffic-row-loading"
    />
  );
}

/** The list's column titles, aligned with the rows. */
export function TrafficHeader({ ref }: { ref?: Ref<HTMLDivElement> }) {
  const { t } = useTranslation("traffic");
  return (
    <div className="log-row log-header traffic-row traffic-header" role="row" ref={ref}>
      <span className="col-seq">#</span>
      <span className="col-dir" />
      <span className="col-time">{t("column.time")}</span>
      <span className="col-kind">{t("column.kind")}</span>
      <span className="col-method">{t("column.method")}</span>
      <span className="col-id">{t("column.id")}</span>
      <span className="col-size">{t("column.size")}</span>
      <span className="col-latency">{t("column.latency")}</span>
      <span className="col-warn" />
    </div>
  );
}
