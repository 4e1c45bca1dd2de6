// A run over time, a point a second: requests answered and failed (stacked bars), and latency
// at p50 and p99 (lines). The same charting library as the Timeline (visx scales on SVG). While
// a run goes the points arrive once a second; a finished run draws its report's series, with
// its ramp's steps as bands and the step that broke marked.
import { scaleLinear } from "@visx/scale";
import { useTranslation } from "react-i18next";
import type { SeriesPoint } from "../bindings/SeriesPoint";
import type { StepReport } from "../bindings/StepReport";
import { formatNumber } from "../format";
import { YGrid } from "../timeline/YGrid";

const WIDTH = 560;
const HEIGHT = 150;
const PAD = { left: 44, right: 12, top: 14, bottom: 22 };
/** Up to this many seconds, each is a dot on the latency lines as well. */
const DOTS = 60;
/** Bars drawn at most: a longer run's seconds are averaged in groups (a day is 86 400). */
const MAX_BARS = 600;

/**
 * The series drawn: each point, or past `max` points, groups of `k` seconds as one point each
 * (requests as the group's mean a second, p50 the mean of its seconds', p99 the highest).
 */
export function downsample(points: readonly SeriesPoint[], max = MAX_BARS): { points: SeriesPoint[]; k: number } {
  if (points.length <= max) return { points: [...points], k: 1 };
  const k = Math.ceil(points.length / max);
  const out: SeriesPoint[] = [];
  for (let i = 0; i < points.length; i += k) {
    const group = points.slice(i, i + k);
    const p50s = group.flatMap((p) => (p.p50_ms === null ? [] : [p.p50_ms]));
    const p99s = group.flatMap((p) => (p.p99_ms === null ? [] : [p.p99_ms]));
    out.push({
      t_s: group[group.length - 1]?.t_s ?? 0,
      completed: Math.round(group.reduce((n, p) => n + p.completed, 0) / k),
      failed: Math.round(group.reduce((n, p) => n + p.failed, 0) / k),
      p50_ms: p50s.length > 0 ? p50s.reduce((a, b) => a + b, 0) / p50s.length : null,
      p99_ms: p99s.length > 0 ? Math.max(...p99s) : null,
    });
  }
  return { points: out, k };
}

/** A ramp step as a band of the time axis, in seconds from the run's start. */
export interface StepBand {
  step: number;
  from_s: number;
  to_s: number;
  broke: boolean;
}

/** The steps' bands, laid end to end from the start (each step's measured time). */
export function stepBands(steps: readonly StepReport[]): StepBand[] {
  let at = 0;
  return steps.map((s) => {
    const band = { step: s.step, from_s: at, to_s: at + s.elapsed_ms / 1000, broke: s.crossed !== null };
    at = band.to_s;
    return band;
  });
}

/** The series' span in seconds (at least one, so an empty chart still has an axis). */
function span(points: readonly SeriesPoint[], bands: readonly StepBand[]): number {
  const last = points[points.length - 1]?.t_s ?? 0;
  const banded = bands[bands.length - 1]?.to_s ?? 0;
  return Math.max(1, last, banded);
}

function Axis({ x, seconds }: { x: (n: number) => number; seconds: number }) {
  const { t } = useTranslation("load");
  const ticks = scaleLinear<number>({ domain: [0, seconds] }).ticks(5);
  return (
    <>
      {ticks.map((s) => (
        <text key={s} x={x(s)} y={HEIGHT - 6} textAnchor="middle" className="timeline-axis-label">
          {t("chart.seconds", { n: s })}
        </text>
      ))}
    </>
  );
}

function Bands({ bands, x }: { bands: readonly StepBand[]; x: (n: number) => number }) {
  const { t } = useTranslation("load");
  return (
    <>
      {bands.map((b) => (
        <rect
          key={b.step}
          x={x(b.from_s)}
          y={PAD.top}
          width={Math.max(1, x(b.to_s) - x(b.from_s))}
          height={HEIGHT - PAD.top - PAD.bottom}
          className={b.broke ? "load-band load-band-broke" : b.step % 2 === 0 ? "load-band load-band-even" : "load-band"}
          data-testid={b.broke ? "load-band-broke" : "load-band"}
        >
          <title>{t("chart.step", { step: b.step })}</title>
        </rect>
      ))}
    </>
  );
}

export function LoadCharts({ points: series, steps = [] }: { points: readonly SeriesPoint[]; steps?: readonly StepReport[] }) {
  const { t } = useTranslation("load");
  const { points, k } = downsample(series);
  const bands = stepBands(steps);
  const seconds = span(points, bands);
  const x = scaleLinear<number>({ domain: [0, seconds], range: [PAD.left, WIDTH - PAD.right] });
  const slot = Math.max(1, ((WIDTH - PAD.left - PAD.right) / seconds) * k - 1);
  const top = points.reduce((n, p) => Math.max(n, p.completed), 1);
  const yCount = scaleLinear<number>({ domain: [0, top], range: [HEIGHT - PAD.bottom, PAD.top], nice: true });
  const slowest = points.reduce((n, p) => Math.max(n, p.p99_ms ?? 0, p.p50_ms ?? 0), 0.001);
  const yMs = scaleLinear<number>({ domain: [0, slowest], range: [HEIGHT - PAD.bottom, PAD.top], nice: true });
  const line = (pick: (p: SeriesPoint) => number | null) =>
    points
      .filter((p) => pick(p) !== null)
      .map((p, i) => `${i === 0 ? "M" : "L"}${x(p.t_s - k / 2).toFixed(1)},${yMs(pick(p) ?? 0).toFixed(1)}`)
      .join(" ");
  return (
    <div className="load-charts" data-testid="load-charts" data-points={points.length} data-seconds-a-bar={k}>
      <figure className="load-chart">
        <figcaption className="muted small">
          {t("chart.throughput")} <span className="load-key load-key-ok">{t("chart.answered")}</span>{" "}
          <span className="load-key load-key-failed">{t("chart.failed")}</span>
          {k > 1 && <span className="load-key-note"> {t("chart.averaged", { k })}</span>}
        </figcaption>
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={t("chart.throughput")} data-testid="load-chart-throughput">
          <Bands bands={bands} x={x} />
          <YGrid y={yCount} left={PAD.left} right={WIDTH - PAD.right} label={formatNumber} />
          {points.map((p) => {
            const ok = p.completed - p.failed;
            const left = x(p.t_s - k) + 0.5;
            return (
              <g key={p.t_s} data-testid="load-second">
                <rect x={left} y={yCount(ok)} width={slot} height={Math.max(0, yCount(0) - yCount(ok))} className="load-bar-ok" />
                <rect
                  x={left}
                  y={yCount(p.completed)}
                  width={slot}
                  height={Math.max(0, yCount(ok) - yCount(p.completed))}
                  className="load-bar-failed"
                />
                <title>{t("chart.second", { s: p.t_s, answered: formatNumber(ok), failed: formatNumber(p.failed) })}</title>
              </g>
            );
          })}
          <Axis x={x} seconds={seconds} />
        </svg>
      </figure>
      <figure className="load-chart">
        <figcaption className="muted small">
          {t("chart.latency")} <span className="load-key load-key-p50">{t("chart.p50")}</span> <span className="load-key load-key-p99">{t("chart.p99")}</span>
        </figcaption>
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={t("chart.latency")} data-testid="load-chart-latency">
          <Bands bands={bands} x={x} />
          <YGrid y={yMs} left={PAD.left} right={WIDTH - PAD.right} label={(n) => t("chart.ms", { n })} />
          <path d={line((p) => p.p50_ms)} className="load-line-p50" fill="none" />
          <path d={line((p) => p.p99_ms)} className="load-line-p99" fill="none" />
          {/* A short run's seconds as dots too: a line of one point draws nothing. */}
          {points.length <= DOTS &&
            points.map((p) => (
              <g key={p.t_s}>
                {p.p50_ms !== null && <circle cx={x(p.t_s - 0.5)} cy={yMs(p.p50_ms)} r={2.5} className="load-dot-p50" />}
                {p.p99_ms !== null && <circle cx={x(p.t_s - 0.5)} cy={yMs(p.p99_ms)} r={2.5} className="load-dot-p99" />}
              </g>
            ))}
          <Axis x={x} seconds={seconds} />
        </svg>
      </figure>
    </div>
  );
}
