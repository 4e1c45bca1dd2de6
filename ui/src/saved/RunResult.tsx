import { X } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { PromptMessages } from "../prompts/PromptMessages";
import { ResourceContents } from "../resources/ResourceContents";
import { ToolResult } from "../tools/ToolResult";
import type { Run } from "../state/saved";

/** The result of a re-run, shown under its row with the view its tab uses. */
export function RunResult({ run, outputSchema, onClose }: { run: Run; outputSchema?: JsonValue; onClose: () => void }) {
  const { t } = useTranslation(["saved", "common"]);
  return (
    <div className="saved-run" data-testid="saved-run-result" data-status={run.state.status}>
      <div className="saved-run-header">
        <span className="muted">{t("run.title")}</span>
        <button type="button" className="icon-button" onClick={onClose} aria-label={t("run.close")} title={t("common:close")}>
          <X size={14} aria-hidden />
        </button>
      </div>
      {run.kind === "tool" && <ToolResult call={run.state} outputSchema={outputSchema} />}
      {run.kind === "resource" && <ResourceContents uri={run.target} read={run.state} />}
      {run.kind === "prompt" && <PromptMessages get={run.state} />}
    </div>
  );
}
