import { useTranslation } from "react-i18next";
import type { RecordingInfo } from "../bindings/RecordingInfo";
import { formatNumber, formatTime } from "../format";


/** What was recorded, when, by which Periscope, and how much. */
export function RecordingOverview({ info }: { info: RecordingInfo }) {
  const { t } = useTranslation("recordings");
  const what = info.target_line;
  const name = info.server?.name;
  const version = info.server?.version;
  const count = (n: number) => formatNumber(n);
  return (
    <div className="overview scroll-area" data-testid="recording-overview">
      <dl className="facts">
        <dt>{t("fact.server")}</dt>
        <dd data-testid="recording-server-name">{name ? `${name}${version ? ` ${version}` : ""}` : t("fact.unknown")}</dd>
        <dt>{t("fact.target")}</dt>
        <dd className="mono">{what || t("fact.unknown")}</dd>
        <dt>{t("fact.era")}</dt>
        <dd data-testid="recording-era">{info.era ? t(info.era === "modern" ? "fact.modern" : "fact.legacy") : t("fact.unknown")}</dd>
        <dt>{t("fact.protocol")}</dt>
        <dd className="mono" data-testid="recording-protocol">
          {info.protocol_version ?? t("fact.unknown")}
        </dd>
        <dt>{t("fact.started")}</dt>
        <dd>{info.started_wall_us ? formatTime(info.started_wall_us) : t("fact.unknown")}</dd>
        <dt>{t("fact.counts")}</dt>
        <dd data-testid="recording-counts">
          {t("fact.countsText", {
            frames: count(info.frames),
            exchanges: count(info.exchanges),
            stderr: count(info.stderr_lines),
            flags: count(info.flags),
          })}
        </dd>
        <dt>{t("fact.format")}</dt>
        <dd className="mono" data-testid="recording-format">
          {info.periscope_version
            ? t("fact.formatText", { format: info.format_version, version: info.periscope_version })
            : info.format_version}
        </dd>
        {info.skipped_lines > 0 && (
          <>
            <dt>{t("fact.skipped")}</dt>
            <dd className="text-warning">{t("fact.skippedText", { count: info.skipped_lines })}</dd>
          </>
        )}
      </dl>
    </div>
  );
}
