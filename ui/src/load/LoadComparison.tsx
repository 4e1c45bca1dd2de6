// The shown run against another kept run, request by request: p50, p99, throughput and error
// rate before and after, the change in percent, and the regressions past the threshold marked
// (the engine's `gates::compare`, the same as `periscope load --baseline`).
import { useTranslation } from "react-i18next";
import type { Change } from "../bindings/Change";
import type { Comparison } from "../bindings/Comparison";
import type { OpComparison } from "../bindings/OpComparison";

const figure = (c: Change) => (c.metric === "error_rate" ? `${c.before.toFixed(2)}% → ${c.after.toFixed(2)}%` : `${+c.before.toFixed(2)} → ${+c.after.toFixed(2)}`);

function Row({ op }: { op: OpComparison }) {
  const { t } = useTranslation("load");
  const label = op.method === null ? t("allRequests") : op.name === null ? op.method : `${op.method} ${op.name}`;
  return (
    <tr data-testid="load-compare-op" data-label={label}>
      <th scope="row" className="mono">
        {label}
      </th>
      {op.changes.map((c) => (
        <td key={c.metric} className={c.regressed ? "load-regressed" : undefined} data-testid={`load-change-${c.metric}`} data-regressed={c.regressed}>
          {figure(c)}
          {c.change_pct !== null && (
            <span className="load-change">
              {" "}
              ({c.change_pct > 0 ? "+" : ""}
              {c.change_pct.toFixed(0)}%)
            </span>
          )}
        </td>
      ))}
    </tr>
  );
}

export function LoadComparison({ comparison }: { comparison: Comparison }) {
  const { t } = useTranslation("load");
  const all = [comparison.total, ...comparison.operations];
  const regressions = all.flatMap((op) => op.changes.filter((c) => c.regressed)).length;
  const metrics = comparison.total.changes.map((c) => c.metric);
  return (
    <section className="load-comparison" data-testid="load-comparison" data-regressions={regressions}>
      <p className={regressions > 0 ? "load-warning" : "load-held"} data-testid="load-compare-verdict">
        {regressions > 0
          ? t("compare.regressed", { count: regressions, threshold: comparison.threshold_pct })
          : t("compare.none", { threshold: comparison.threshold_pct })}
      </p>
      <table className="load-table">
        <thead>
          <tr>
            <th scope="col">{t("col.request")}</th>
            {metrics.map((m) => (
              <th key={m} scope="col">
                {t(`metric.${m}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {all.map((op) => (
            <Row key={`${op.method ?? ""} ${op.name ?? ""}`} op={op} />
          ))}
        </tbody>
      </table>
      {comparison.only_before.length > 0 && <p className="muted small">{t("compare.onlyBefore", { list: comparison.only_before.join(", ") })}</p>}
      {comparison.only_after.length > 0 && <p className="muted small">{t("compare.onlyAfter", { list: comparison.only_after.join(", ") })}</p>}
    </section>
  );
}
