// The token cost of a check's audit (docs/audit.md, "Tokens"): what the server's tools and
// instructions cost in a model's context on every request, counted with OpenAI's tokenizers
// and estimated for Anthropic's models, the dearest first, with the budget's warning.
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { TokenReport } from "../bindings/TokenReport";
import { ServerText } from "../common/ServerText";

/** Rows shown before "Show passed and skipped", and with it at first and at each "more" (a
 * server of 20 000 tools stays quick: benches/run.sh app_audit). */
const FIRST = 10;
const STEP = 50;

export function TokenTable({ tokens, showAll }: { tokens: TokenReport; showAll: boolean }) {
  const { t, i18n } = useTranslation("check");
  const [limit, setLimit] = useState(STEP);
  const number = (n: number) => n.toLocaleString(i18n.language);
  const items = tokens.items.slice(0, showAll ? limit : FIRST);
  return (
    <div className="token-table" data-testid="audit-tokens">
      <h4 className="check-subtitle">{t("audit.tokens.title")}</h4>
      <p className="muted" data-testid="audit-tokens-total">
        {t("audit.tokens.total", {
          o200k: number(tokens.total.o200k),
          cl100k: number(tokens.total.cl100k),
          anthropic: number(tokens.total.anthropic_estimate),
          budget: number(tokens.budget),
        })}
      </p>
      {tokens.over_budget && (
        <p className="warning-box" role="status" data-testid="audit-tokens-over">
          {t("audit.tokens.over", { o200k: number(tokens.total.o200k), budget: number(tokens.budget) })}
        </p>
      )}
      <table className="host-matrix-table">
        <thead>
          <tr>
            <th scope="col">{t("audit.tokens.item")}</th>
            <th scope="col">{t("audit.tokens.o200k")}</th>
            <th scope="col">{t("audit.tokens.cl100k")}</th>
            <th scope="col" title={t("audit.tokens.estimateHint")}>
              {t("audit.tokens.anthropic")}
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={`${item.subject}:${item.name}`} data-testid="audit-tokens-row" data-name={item.name}>
              <th scope="row" className="mono">
                {item.subject === "instructions" ? t("audit.subject.instructions") : <ServerText text={item.name} />}
              </th>
              <td className="num">{number(item.tokens.o200k)}</td>
              <td className="num">{number(item.tokens.cl100k)}</td>
              <td className="num">~{number(item.tokens.anthropic_estimate)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {items.length < tokens.items.length &&
        (showAll ? (
          <button type="button" className="link-button" data-testid="audit-tokens-more" onClick={() => setLimit(limit + STEP)}>
            {t("audit.tokens.showMore", { shown: items.length, count: tokens.items.length })}
          </button>
        ) : (
          <p className="muted small">{t("audit.tokens.more", { count: tokens.items.length - items.length })}</p>
        ))}
    </div>
  );
}
