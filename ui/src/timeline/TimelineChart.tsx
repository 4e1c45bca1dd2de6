import { scaleLinear } from "@visx/scale";
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from "react";
import { useTranslation } from "react-i18next";
import type { Timeline } from "../bindings/Timeline";
import type { TimelineSpan } from "../bindings/TimelineSpan";
import type { TimelineTick } from "../bindings/TimelineTick";
import { formatLatency, formatTime } from "../format";
import { axisLabel } from "./axis";
import { type Domain, ZOOM_STEP, packRows, panBy, progressFraction, spanEnd, spanFrame, zoomAt } from "./view";

/** One server's lane as the chart draws it. */
export interface ChartLane {
  serverId: string;
  name: string;
  timeline: Timeline;
}

const AXIS_H = 22;
const LANE_TITLE_H = 18;
const ROW_H = 20;
const BAR_H = 14;
const TICK_ROW_H = 12;
const LANE_GAP = 10;
/** Rows a lane packs overlapping calls into; more overlap shares the last row. */
const MAX_ROWS = 12;
/** A bar narrower than this is drawn this wide, so a fast call can still be seen and clicked. */
const MIN_BAR_PX = 3;
/** Pointer travel that turns a press into a pan rather than a click. */
const DRAG_PX = 4;

interface Hover {
  span: TimelineSpan;
  serverId: string;
  x: number;
  y: number;
}

/** The element's width, followed as it resizes. */
function useWidth(fallback: number): [React.RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setWidth(Math.max(200, element.clientWidth || fallback));
    measure();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [fallback]);
  return [ref, width];
}

/**
 * Calls as bars from request to answer (coloured by outcome, progress inside, rounds as
 * segments), notifications as ticks, one lane per server. Wheel or pinch zooms about the
 * pointer, dragging pans; a click on a bar opens its frame.
 */
export function TimelineChart({
  lanes,
  domain,
  origin,
  nowUs,
  showNames,
  onDomain,
  onOpen,
}: {
  lanes: readonly ChartLane[];
  domain: Domain;
  /** The instant the axis counts from (the first thing shown). */
  origin: number;
  nowUs: number;
  showNames: boolean;
  onDomain: (domain: Domain) => void;
  onOpen: (serverId: string, seq: number) => void;
}) {
  const { t } = useTranslation("timeline");
  const [ref, width] = useWidth(800);
  const svgRef = useRef<SVGSVGElement>(null);
  const [hover, setHover] = useState<Hover | null>(null);
  const drag = useRef<{ x: number; domain: Domain; moved: boolean } | null>(null);
  const suppressClick = useRef(false);

  const x = useMemo(() => scaleLinear<number>({ domain: [domain.from, domain.to], range: [0, width] }), [domain, width]);
  const axis = useMemo(
    () => scaleLinear<number>({ domain: [(domain.from - origin) / 1000, (domain.to - origin) / 1000], range: [0, width] }),
    [domain, origin, width],
  );

  const layout = useMemo(() => {
    const placed = [];
    let y = AXIS_H;
    for (const lane of lanes) {
      const top = y;
      const titleH = showNames ? LANE_TITLE_H : 0;
      const { rows, count } = packRows(lane.timeline.spans, lane.timeline.now_us);
      const rowCount = Math.max(1, Math.min(MAX_ROWS, count));
      const rowsTop = top + titleH;
      const ticksTop = rowsTop + rowCount * ROW_H;
      y = ticksTop + TICK_ROW_H + LANE_GAP;
      placed.push({ lane, top, rows, rowsTop, ticksTop });
    }
    return placed;
  }, [lanes, showNames]);
  const height = layout.reduce((h, l) => Math.max(h, l.ticksTop + TICK_ROW_H + LANE_GAP), AXIS_H + ROW_H + TICK_ROW_H);

  // Wheel zooms about the pointer (a touchpad pinch arrives as a wheel with ctrl); a sideways
  // or shift wheel pans. Not passive: the page must not scroll while the view zooms.
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const d = domain;
      const px = event.clientX - svg.getBoundingClientRect().left;
      const perPx = (d.to - d.from) / width;
      if (event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY)) {
        onDomain(panBy(d, (event.shiftKey ? event.deltaY : event.deltaX) * perPx));
        return;
      }
      const factor = event.deltaY > 0 ? ZOOM_STEP : 1 / ZOOM_STEP;
      onDomain(zoomAt(d, event.ctrlKey ? Math.sqrt(factor) : factor, d.from + px * perPx));
    };
    svg.addEventListener("wheel", onWheel, { passive: false });
    return () => svg.removeEventListener("wheel", onWheel);
  }, [domain, onDomain, width]);

  const onPointerDown = (event: PointerEvent<SVGSVGElement>) => {
    if (event.button !== 0) return;
    drag.current = { x: event.clientX, domain, moved: false };
    suppressClick.current = false;
  };
  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    const d = drag.current;
    if (!d) return;
    const dx = event.clientX - d.x;
    if (!d.moved && Math.abs(dx) < DRAG_PX) return;
    if (!d.moved) event.currentTarget.setPointerCapture?.(event.pointerId);
    d.moved = true;
    setHover(null);
    onDomain(panBy(d.domain, (-dx * (d.domain.to - d.domain.from)) / width));
  };
  const onPointerUp = () => {
    suppressClick.current = drag.current?.moved ?? false;
    drag.current = null;
  };

  const open = (serverId: string, span: TimelineSpan) => {
    if (suppressClick.current) return;
    const seq = spanFrame(span);
    if (seq !== null) onOpen(serverId, seq);
  };

  const visible = (from: number, to: number) => to >= domain.from && from <= domain.to;
  let firstTabStop = true;

  return (
    <div className="timeline-chart" ref={ref} data-testid="timeline-chart">
      <svg
        ref={svgRef}
        width={width}
        height={height}
        className="timeline-svg"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerLeave={() => setHover(null)}
        aria-label={t("chart.label")}
        role="group"
      >
        <g className="timeline-axis">
          {axis
            .ticks(Math.max(2, Math.floor(width / 110)))
            .filter((ms) => axis(ms) > 24 && axis(ms) < width - 24)
            .map((ms) => (
            <g key={ms} transform={`translate(${axis(ms)},0)`}>
              <line y1={AXIS_H - 5} y2={height} className="timeline-grid" />
              <text y={AXIS_H - 8} textAnchor="middle" className="timeline-axis-label">
                {axisLabel(ms, domain.to - domain.from, t)}
              </text>
            </g>
          ))}
        </g>
        {layout.map(({ lane, top, rows, rowsTop, ticksTop }) => (
          <g key={lane.serverId} data-testid="timeline-lane" data-server-id={lane.serverId}>
            {showNames && (
              <text x={4} y={top + LANE_TITLE_H - 5} className="timeline-lane-title">
                {lane.name}
              </text>
            )}
            {lane.timeline.spans.map((span, i) => {
              const end = spanEnd(span, Math.max(nowUs, lane.timeline.now_us));
              if (!visible(span.start_us, end)) return null;
              // One Tab stop for the whole chart: the first bar drawn; arrows move between bars.
              const tabStop = firstTabStop;
              firstTabStop = false;
              const row = Math.min(MAX_ROWS - 1, rows[i] ?? 0);
              return (
                <SpanBar
                  key={`${span.request_seq ?? "r"}-${span.response_seq ?? ""}`}
                  span={span}
                  x={x}
                  end={end}
                  y={rowsTop + row * ROW_H + (ROW_H - BAR_H) / 2}
                  width={width}
                  tabStop={tabStop}
                  onOpen={() => open(lane.serverId, span)}
                  onHover={(on, px, py) => setHover(on ? { span, serverId: lane.serverId, x: px, y: py } : null)}
                />
              );
            })}
            <line x1={0} x2={width} y1={ticksTop + TICK_ROW_H / 2} y2={ticksTop + TICK_ROW_H / 2} className="timeline-tick-rule" />
            {lane.timeline.ticks.map((tick) =>
              visible(tick.at_us, tick.at_us) ? <Tick key={tick.seq} tick={tick} x={x(tick.at_us)} y={ticksTop} serverId={lane.serverId} onOpen={onOpen} /> : null,
            )}
          </g>
        ))}
      </svg>
      {hover && <SpanTooltip hover={hover} nowUs={nowUs} width={width} />}
    </div>
  );
}

function SpanBar({
  span,
  x,
  end,
  y,
  width,
  tabStop,
  onOpen,
  onHover,
}: {
  span: TimelineSpan;
  x: (us: number) => number;
  end: number;
  y: number;
  width: number;
  tabStop: boolean;
  onOpen: () => void;
  onHover: (on: boolean, x: number, y: number) => void;
}) {
  const { t } = useTranslation("timeline");
  const left = Math.max(-10, x(span.start_us));
  const right = Math.min(width + 10, x(end));
  const w = Math.max(MIN_BAR_PX, right - left);
  const last = span.progress[span.progress.length - 1];
  const fraction = last ? progressFraction(last) : null;
  const duration = span.duration_us ?? (span.end_us === null ? end - span.start_us : null);
  const label = t("bar.label", {
    method: span.method,
    outcome: t(`outcome.${span.outcome}`),
    duration: duration === null ? "?" : formatLatency(duration),
  });
  const onKeyDown = (event: KeyboardEvent<SVGGElement>) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onOpen();
      return;
    }
    const step = event.key === "ArrowRight" || event.key === "ArrowDown" ? 1 : event.key === "ArrowLeft" || event.key === "ArrowUp" ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const bars = Array.from(event.currentTarget.ownerSVGElement?.querySelectorAll<SVGGElement>('[data-testid="timeline-bar"]') ?? []);
    bars[bars.indexOf(event.currentTarget) + step]?.focus();
  };
  return (
    <g
      className={`timeline-bar outcome-${span.outcome} direction-${span.direction}${span.rounds.length > 0 ? " has-rounds" : ""}`}
      data-testid="timeline-bar"
      data-seq={span.request_seq ?? span.response_seq ?? ""}
      data-method={span.method}
      data-outcome={span.outcome}
      data-direction={span.direction}
      data-duration-us={duration ?? ""}
      data-progress-count={span.progress_count}
      data-rounds={span.rounds.length}
      role="button"
      tabIndex={tabStop ? 0 : -1}
      aria-label={label}
      onClick={onOpen}
      onKeyDown={onKeyDown}
      onPointerEnter={() => onHover(true, left + w / 2, y)}
      onPointerLeave={() => onHover(false, 0, 0)}
      onFocus={() => onHover(true, left + w / 2, y)}
      onBlur={() => onHover(false, 0, 0)}
    >
      <rect x={left} y={y} width={w} height={BAR_H} rx={2} className="timeline-bar-body" />
      {span.rounds.map((round) => {
        const rl = Math.max(left, x(round.start_us));
        const rr = Math.min(left + w, x(round.end_us ?? end));
        return (
          <rect
            key={round.round}
            x={rl}
            y={y}
            width={Math.max(1, rr - rl)}
            height={BAR_H}
            className="timeline-round"
            data-testid="timeline-round"
          />
        );
      })}
      {fraction !== null && <rect x={left} y={y + BAR_H - 3} width={w * fraction} height={3} className="timeline-progress-fill" />}
      {span.progress.map((mark) => (
        <line
          key={mark.seq}
          x1={x(mark.at_us)}
          x2={x(mark.at_us)}
          y1={y + 2}
          y2={y + BAR_H - 2}
          className="timeline-progress-mark"
          data-testid="timeline-progress"
        />
      ))}
      {w > 60 && (
        <text x={left + 4} y={y + BAR_H - 4} className="timeline-bar-text">
          {span.method}
        </text>
      )}
    </g>
  );
}

function Tick({
  tick,
  x,
  y,
  serverId,
  onOpen,
}: {
  tick: TimelineTick;
  x: number;
  y: number;
  serverId: string;
  onOpen: (serverId: string, seq: number) => void;
}) {
  const { t } = useTranslation("timeline");
  const name = tick.method ?? t(`tick.${tick.kind}`);
  return (
    <g
      className={`timeline-tick tick-${tick.kind} direction-${tick.direction}`}
      data-testid="timeline-tick"
      data-seq={tick.seq}
      data-method={tick.method ?? ""}
      onClick={() => onOpen(serverId, tick.seq)}
    >
      <title>{t("tick.title", { name, time: formatTime(tick.at_us) })}</title>
      <line x1={x} x2={x} y1={y + 1} y2={y + TICK_ROW_H - 1} />
      <rect x={x - 3} y={y} width={6} height={TICK_ROW_H} className="timeline-tick-hit" />
    </g>
  );
}

function SpanTooltip({ hover, nowUs, width }: { hover: Hover; nowUs: number; width: number }) {
  const { t } = useTranslation("timeline");
  const { span } = hover;
  const duration = span.duration_us ?? (span.end_us === null ? Math.max(0, nowUs - span.start_us) : null);
  const last = span.progress[span.progress.length - 1];
  return (
    <div
      className="timeline-tooltip"
      role="tooltip"
      data-testid="timeline-tooltip"
      style={{ left: Math.min(Math.max(0, hover.x - 120), width - 240), top: hover.y + BAR_H + 4 }}
    >
      <div className="timeline-tooltip-method">{span.method}</div>
      <div>
        {t("tooltip.duration", { duration: duration === null ? "?" : formatLatency(duration) })}
        {" · "}
        {t(`outcome.${span.outcome}`)}
      </div>
      <div className="timeline-tooltip-muted">{t("tooltip.started", { time: formatTime(span.start_us) })}</div>
      {span.rounds.length > 0 && <div>{t("tooltip.rounds", { count: span.rounds.length })}</div>}
      {last && (
        <div>
          {last.total === null
            ? t("tooltip.progress", { count: span.progress_count, progress: last.progress })
            : t("tooltip.progressOf", { count: span.progress_count, progress: last.progress, total: last.total })}
          {last.message ? ` · ${last.message}` : ""}
        </div>
      )}
    </div>
  );
}
