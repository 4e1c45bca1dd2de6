// A chart's value axis: three grid lines across the plot, each labelled at its left. The
// Timeline's latency histogram and the Load view's charts draw it the same way.
import type { scaleLinear } from "@visx/scale";

export type LinearScale = ReturnType<typeof scaleLinear<number>>;

/** `left` and `right`: the plot's edges in the SVG's units. */
export function YGrid({ y, left, right, label }: { y: LinearScale; left: number; right: number; label: (n: number) => string }) {
  return (
    <>
      {y.ticks(3).map((n) => (
        <g key={n}>
          <line x1={left} x2={right} y1={y(n)} y2={y(n)} className="timeline-grid" />
          <text x={left - 4} y={y(n) + 3} textAnchor="end" className="timeline-axis-label">
            {label(n)}
          </text>
        </g>
      ))}
    </>
  );
}
