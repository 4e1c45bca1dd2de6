// A check's verdicts grouped by area, each group with its counts. A result opens to its fix,
// why it was skipped, its spec section, the official scenario that tests the same rule, and
// its frames (a click opens the frame in the check's record, in Traffic).
import { ChevronDown, ChevronRight } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Area } from "../bindings/Area";
import type { CheckChanges } from "../bindings/CheckChanges";
import type { CheckReport } from "../bindings/CheckReport";
import type { CheckResult } from "../bindings/CheckResult";
import type { NotAsked } from "../bindings/NotAsked";
import type { RuleVerdict } from "../bindings/RuleVerdict";
import { CopyButton } from "../common/CopyButton";
import { AREA_ORDER } from "../state/check";
import { openCheckFrame, recordOf } from "./actions";


/** Frames listed per result before "+N". */
const FRAMES_SHOWN = 12;

/** The verdicts, in the order counts name them. */
export const VERDICTS: readonly RuleVerdict[] = ["fail", "warning", "pass", "skipped"];

const broken = (verdict: RuleVerdict) => verdict === "fail" || verdict === "warning";

export const resultKey = (result: Pick<CheckResult, "rule" | "era">) => `${result.rule}-${result.era ?? "once"}`;

interface Props {
  results: readonly CheckResult[];
  /** The finished report (none while a run is live: its frames cannot open yet). */
  report: CheckReport | null;
  changes: CheckChanges | null;
  showAll: boolean;
}

export function CheckResults({ results, report, changes, showAll }: Props) {
  const { t } = useTranslation("check");
  const fresh = new Set((changes?.new_failures ?? []).map(resultKey));
  const groups = new Map<Area, CheckResult[]>();
  for (const result of results) groups.set(result.area, [...(groups.get(result.area) ?? []), result]);
  const areas = [...groups.keys()].sort((a, b) => AREA_ORDER[a] - AREA_ORDER[b]);
  return (
    <div className="check-groups" data-testid="check-results">
      {areas.map((area) => {
        const all = groups.get(area) ?? [];
        const shown = showAll ? all : all.filter((r) => broken(r.verdict));
        const count = (verdict: RuleVerdict) => all.filter((r) => r.verdict === verdict).length;
        return (
          <section key={area} className="check-group" data-testid={`check-area-${area}`}>
            <h3 className="check-group-title">
              {t(`area.${area}`)}
              <span className="check-group-counts">
                {VERDICTS.map(
                  (verdict) =>
                    count(verdict) > 0 && (
                      <span key={verdict} className={`check-count verdict-${verdict}`}>
                        {count(verdict)} {t(`counts.${verdict}`)}
                      </span>
                    ),
                )}
              </span>
            </h3>
            {shown.length > 0 && (
              <ul className="check-result-list">
                {shown.map((result) => (
                  <ResultRow key={resultKey(result)} result={result} report={report} isNew={fresh.has(resultKey(result))} />
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}

function ResultRow({ result, report, isNew }: { result: CheckResult; report: CheckReport | null; isNew: boolean }) {
  const { t } = useTranslation("check");
  const [open, setOpen] = useState(false);
  const record = report ? recordOf(report, result) : null;
  const Chevron = open ? ChevronDown : ChevronRight;
  return (
    <li className={`check-result verdict-${result.verdict}`} data-testid={`check-result-${resultKey(result)}`} data-verdict={result.verdict}>
      <button type="button" className="check-result-head" aria-expanded={open} onClick={() => setOpen(!open)}>
        <Chevron size={14} aria-hidden />
        <span className={`check-verdict verdict-${result.verdict}`}>{t(`verdict.${result.verdict}`)}</span>
        <span className="check-rule-title">{t(`rules.${result.rule}.title`)}</span>
        {result.era && <span className="badge">{t(`eraTag.${result.era}`)}</span>}
        {isNew && (
          <span className="badge check-new" data-testid="check-new">
            {t("changes.newTag")}
          </span>
        )}
      </button>
      <div className="check-result-message">
        <code className="check-rule-id">{result.rule}</code> {result.message}
      </div>
      {open && (
        <div className="check-result-detail" data-testid="check-result-detail">
          {result.hint !== null && (
            <p className="check-fix" data-testid="check-fix">
              <b>{t("result.fix")}:</b> {t(`rules.${result.rule}.hint`)}
            </p>
          )}
          {result.skipped && <p className="muted">{skippedText(result.skipped, t)}</p>}
          <p className="check-spec">
            <b>{t("result.spec")}:</b> <span className="selectable">{result.spec}</span>
            <CopyButton text={result.spec} />
          </p>
          {result.official_scenario && (
            <p>
              <b>{t("result.official")}:</b> <code>{result.official_scenario}</code>
            </p>
          )}
          {result.frames.length > 0 && (
            <div className="check-frames">
              <b>{t("result.frames")}:</b>
              {result.frames.slice(0, FRAMES_SHOWN).map((seq) => (
                <button
                  key={seq}
                  type="button"
                  className="button button-small"
                  disabled={!record}
                  title={record ? t("result.openFrame", { seq }) : t("result.noRecord")}
                  data-testid={`check-frame-${seq}`}
                  onClick={() => record && void openCheckFrame(record, seq)}
                >
                  #{seq}
                </button>
              ))}
              {result.frames.length > FRAMES_SHOWN && <span className="muted">+{result.frames.length - FRAMES_SHOWN}</span>}
            </div>
          )}
        </div>
      )}
    </li>
  );
}

type T = ReturnType<typeof useTranslation<"check">>["t"];

function skippedText(why: NotAsked, t: T): string {
  switch (why.why) {
    case "not_declared":
      return t("skipped.not_declared", { capability: why.capability });
    case "not_read_only":
      return t("skipped.not_read_only", { tools: why.tools.join(", ") });
    default:
      return t(`skipped.${why.why}`);
  }
}
