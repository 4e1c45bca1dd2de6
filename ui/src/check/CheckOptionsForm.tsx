// The options of a run: which eras, and which tools may be called. Calling is off until the
// user turns it on; then the tools the server marks read-only are listed first (they will be
// called), and the others can be ticked one by one, or all at once.
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { CheckRunOptions } from "../bindings/CheckRunOptions";
import type { EraPick } from "../bindings/EraPick";
import type { ToolView } from "../bindings/ToolView";
import { AREAS } from "../state/check";
import type { ListState } from "../state/lists";

const ERA_PICKS: readonly EraPick[] = ["auto", "both", "modern", "legacy"];

/** Tools to pick drawn at most; past it a filter finds the others (a server of 20 000 tools). */
const PICKABLE = 100;

interface Props {
  options: CheckRunOptions;
  tools: ListState<ToolView>;
  disabled: boolean;
  onChange: (options: CheckRunOptions) => void;
}

export function CheckOptionsForm({ options, tools, disabled, onChange }: Props) {
  const { t } = useTranslation("check");
  const calls = options.calls;
  const calling = !calls.none;
  const named = (tools.status === "loaded" ? tools.items : []).filter((tool): tool is ToolView & { name: string } => tool.name !== null);
  const readOnly = named.filter((tool) => tool.annotations.read_only_hint === true);
  const others = named.filter((tool) => tool.annotations.read_only_hint !== true);
  const setCalls = (next: Partial<CheckRunOptions["calls"]>) => onChange({ ...options, calls: { ...calls, ...next } });
  const [filter, setFilter] = useState("");
  const matching = filter ? others.filter((tool) => tool.name.toLowerCase().includes(filter.toLowerCase())) : others;
  const picked = new Set(calls.named);
  const tick = (name: string, on: boolean) =>
    setCalls({ named: on ? [...calls.named.filter((n) => n !== name), name] : calls.named.filter((n) => n !== name) });
  return (
    <fieldset className="check-options" disabled={disabled} data-testid="check-options">
      <label className="check-option">
        {t("options.eras")}
        <select
          value={options.eras}
          data-testid="check-eras"
          onChange={(event) => onChange({ ...options, eras: event.target.value as EraPick })}
        >
          {ERA_PICKS.map((pick) => (
            <option key={pick} value={pick}>
              {t(`options.era.${pick}`)}
            </option>
          ))}
        </select>
      </label>
      <div className="check-areas" role="group" aria-label={t("options.areas")} data-testid="check-areas">
        <span className="check-tools-title">{t("options.areas")}</span>
        {AREAS.map((area) => (
          <label key={area} className="check-option">
            <input
              type="checkbox"
              checked={!options.skip.includes(area)}
              data-testid={`check-area-pick-${area}`}
              onChange={(event) =>
                onChange({
                  ...options,
                  skip: event.target.checked ? options.skip.filter((a) => a !== area) : [...options.skip, area],
                })
              }
            />
            {t(`area.${area}`)}
          </label>
        ))}
      </div>
      <label className="check-option">
        <input
          type="checkbox"
          checked={calling}
          data-testid="check-call-tools"
          onChange={(event) => setCalls({ none: !event.target.checked })}
        />
        {t("options.callTools")}
      </label>
      <p className="muted small check-calls-line">{calling ? t("options.callToolsOn") : t("options.callToolsOff")}</p>
      {calling && (
        <div className="check-tools" data-testid="check-tools">
          {tools.status !== "loaded" ? (
            <p className="muted small">{t("options.toolsUnknown")}</p>
          ) : named.length === 0 ? (
            <p className="muted small">{t("options.noTools")}</p>
          ) : (
            <>
              <div className="check-tools-group" data-testid="check-read-only-tools">
                <div className="check-tools-title">{t("options.readOnly")}</div>
                {readOnly.length === 0 ? (
                  <p className="muted small">{t("options.noneReadOnly")}</p>
                ) : (
                  <ul className="check-tool-names">
                    {readOnly.slice(0, PICKABLE).map((tool) => (
                      <li key={tool.name}>
                        <code>{tool.name}</code>
                      </li>
                    ))}
                    {readOnly.length > PICKABLE && (
                      <li className="muted small" data-testid="check-read-only-more">
                        {t("options.moreReadOnly", { count: readOnly.length - PICKABLE })}
                      </li>
                    )}
                  </ul>
                )}
              </div>
              {others.length > 0 && (
                <div className="check-tools-group">
                  <div className="check-tools-title">{t("options.pick")}</div>
                  <label className="check-option">
                    <input
                      type="checkbox"
                      checked={calls.all}
                      data-testid="check-call-all"
                      onChange={(event) => setCalls({ all: event.target.checked })}
                    />
                    {t("options.callAll")}
                  </label>
                  {others.length > PICKABLE && (
                    <div className="check-tools-filter">
                      <input
                        type="search"
                        value={filter}
                        placeholder={t("options.filter")}
                        aria-label={t("options.filter")}
                        data-testid="check-tools-filter"
                        onChange={(event) => setFilter(event.target.value)}
                      />
                      <span className="muted small" data-testid="check-tools-shown">
                        {t("options.shown", { shown: Math.min(PICKABLE, matching.length), count: matching.length })}
                      </span>
                    </div>
                  )}
                  <ul className="check-tool-names">
                    {matching.slice(0, PICKABLE).map((tool) => (
                      <li key={tool.name}>
                        <label>
                          <input
                            type="checkbox"
                            checked={calls.all || picked.has(tool.name)}
                            disabled={calls.all}
                            data-testid={`check-call-${tool.name}`}
                            onChange={(event) => tick(tool.name, event.target.checked)}
                          />
                          <code>{tool.name}</code>
                        </label>
                      </li>
                    ))}
                  </ul>
                </div>
              )}
            </>
          )}
        </div>
      )}
    </fieldset>
  );
}
