// A skill file as read: its verification line, then its content — text, Markdown rendered, or
// a hex dump for bytes — or, when it failed, nothing of it (the raw frame is in Traffic).
import { ShieldAlert, ShieldCheck, ShieldQuestion } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { FileCheck } from "../bindings/FileCheck";
import type { SkillFileRead } from "../bindings/SkillFileRead";
import { ServerMarkdown } from "../common/ServerMarkdown";
import { HexDump } from "../content/HexDump";
import { formatBytes } from "../format";
import { describeCheck } from "./describe";

export function CheckLine({ check }: { check: FileCheck }) {
  const verdict = check.kind === "verified" ? "verified" : check.kind === "unverifiable" ? "unverifiable" : "failed";
  const Icon = verdict === "verified" ? ShieldCheck : verdict === "unverifiable" ? ShieldQuestion : ShieldAlert;
  return (
    <div className={`skill-check skill-check-${verdict}`} data-testid="skill-check" data-verdict={verdict}>
      <Icon size={14} aria-hidden /> <span className="mono">{describeCheck(check)}</span>
    </div>
  );
}

export function SkillFileView({ read }: { read: SkillFileRead }) {
  const { t } = useTranslation("skills");
  const markdown = read.mime_type === "text/markdown" || read.path.endsWith(".md");
  return (
    <div data-testid="skill-file-read">
      <CheckLine check={read.check} />
      <p className="muted small">
        {formatBytes(Number(read.size))}
        {read.mime_type && <span className="mono"> · {read.mime_type}</span>}
      </p>
      {read.content === null && <p className="muted">{t("detail.withheld")}</p>}
      {read.content?.kind === "text" &&
        (markdown ? (
          <div className="markdown skill-body" data-testid="skill-file-text">
            <ServerMarkdown text={read.content.text} />
          </div>
        ) : (
          <pre className="code-block" data-testid="skill-file-text">
            {read.content.text}
          </pre>
        ))}
      {read.content?.kind === "binary" && <HexDump data={read.content.base64} />}
    </div>
  );
}
