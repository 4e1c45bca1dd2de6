import { scaleLinear, scaleLog } from "@visx/scale";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import type { MethodLatency } from "../bindings/MethodLatency";
import { formatLatency, formatNumber } from "../format";
import { binBuckets, latencyRange, percentiles } from "./latency";
import { YGrid } from "./YGrid";

const WIDTH = 560;
const HEIGHT = 160;
const PAD = { left: 36, right: 12, top: 18, bottom: 22 };

/** Powers of ten only: a log axis labelled at every 2, 3, 4… is unreadable. */
const isDecade = (us: number) => Math.abs(Math.log10(us) - Math.round(Math.log10(us))) < 1e-9;

/** One method's latency histogram on a log scale, with p50, p90 and p99 marked. */
export function LatencyPlot({ method }: { method: MethodLatency }) {
  const { t } = useTranslation("timeline");
  const { min, max } = latencyRange(method);
  const bars = useMemo(() => binBuckets(method.buckets, min, max), [method.buckets, min, max]);
  const x = scaleLog<number>({ domain: [min, max], range: [PAD.left, WIDTH - PAD.right] });
  const top = bars.reduce((n, b) => Math.max(n, b.count), 1);
  const y = scaleLinear<number>({ domain: [0, top], range: [HEIGHT - PAD.bottom, PAD.top], nice: true });
  const marks = percentiles(method);
  return (
    <figure className="latency-plot" data-testid="latency-plot" data-method={method.method}>
      <figcaption className="latency-summary" data-testid="latency-summary">
        {t("latency.summary", {
          count: method.count,
          errors: formatNumber(Number(method.errors)),
          min: formatLatency(method.min_us),
          max: formatLatency(method.max_us),
        })}
        {marks.map((m) => (
          <span key={m.label} className={`latency-mark-label ${m.label}`} data-testid={`latency-${m.label}`} data-us={m.us}>
            {t("latency.percentile", { name: m.label, value: formatLatency(m.us) })}
          </span>
        ))}
        {method.approximate && <span className="latency-approx">{t("latency.approximate")}</span>}
      </figcaption>
      <svg width={WIDTH} height={HEIGHT} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={t("latency.label", { method: method.method })}>
        <YGrid y={y} left={PAD.left} right={WIDTH - PAD.right} label={formatNumber} />
        {bars.map((b) => {
          const left = x(Math.max(min, b.lower_us));
          const right = x(Math.min(max, b.upper_us));
          return (
            <rect
              key={b.lower_us}
              x={left}
              y={y(b.count)}
              width={Math.max(1, right - left - 1)}
              height={Math.max(0, HEIGHT - PAD.bottom - y(b.count))}
              className="latency-bar"
              data-testid="latency-bar"
            >
              <title>{t("latency.bar", { count: b.count, from: formatLatency(b.lower_us), to: formatLatency(b.upper_us) })}</title>
            </rect>
          );
        })}
        {marks.map((m, i) => (
          <g key={m.label} className={`latency-mark ${m.label}`}>
            <line x1={x(m.us)} x2={x(m.us)} y1={PAD.top - 4} y2={HEIGHT - PAD.bottom} />
            <text
              x={x(m.us) > WIDTH - PAD.right - 30 ? x(m.us) - 3 : x(m.us) + 3}
              y={PAD.top + 6 + i * 11}
              textAnchor={x(m.us) > WIDTH - PAD.right - 30 ? "end" : "start"}
              className="latency-mark-text"
            >
              {m.label}
            </text>
          </g>
        ))}
        {x.ticks(4).filter(isDecade).map((us) => (
          <text key={us} x={x(us)} y={HEIGHT - 6} textAnchor="middle" className="timeline-axis-label">
            {formatLatency(us)}
          </text>
        ))}
      </svg>
    </figure>
  );
}
