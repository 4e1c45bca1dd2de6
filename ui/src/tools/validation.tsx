// Checking JSON against a schema through the Rust validator, and showing the verdict.
import { AlertTriangle, CheckCircle2, Info } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { SchemaReport } from "../bindings/SchemaReport";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { errorMessage, hasTauri } from "../ipc";
import { toolsIpc } from "../ipc";

export type Validate = (schema: JsonValue, instance: JsonValue) => Promise<SchemaReport>;

/** The Rust validator inside the app; null in a plain browser (or a test) without Tauri. */
export function defaultValidate(): Validate | null {
  return hasTauri() ? toolsIpc.validateJson : null;
}

export type Verdict =
  | { state: "idle" }
  | { state: "checking" }
  | { state: "done"; report: SchemaReport }
  | { state: "failed"; message: string };

/** Validates `instance` (debounced) whenever it or the schema changes. */
export function useVerdict(
  validate: Validate | null,
  schema: JsonValue | undefined,
  instance: JsonValue | undefined,
  delayMs = 250,
): Verdict {
  const [verdict, setVerdict] = useState<Verdict>({ state: "idle" });
  useEffect(() => {
    if (!validate || schema === undefined || instance === undefined) return;
    let live = true;
    const timer = setTimeout(() => {
      setVerdict({ state: "checking" });
      validate(schema, instance).then(
        (report) => live && setVerdict({ state: "done", report }),
        (error: unknown) => live && setVerdict({ state: "failed", message: errorMessage(error) }),
      );
    }, delayMs);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [validate, schema, instance, delayMs]);
  return validate && schema !== undefined && instance !== undefined ? verdict : { state: "idle" };
}

/** Whether the verdict found the instance wrong (not: the schema unusable). */
export function hasIssues(verdict: Verdict): boolean {
  return verdict.state === "done" && verdict.report.schema_error === null && !verdict.report.valid;
}

interface ViewProps {
  verdict: Verdict;
  /** What is checked: a tool's arguments (against its inputSchema), or structuredContent (against its outputSchema). */
  subject: "arguments" | "structured";
  testId?: string;
}

/** The verdict as a line (valid), a warning list (issues), or a note (schema unusable). */
export function VerdictView({ verdict, subject, testId }: ViewProps) {
  const { t } = useTranslation("tools");
  if (verdict.state === "idle") return null;
  if (verdict.state === "checking") {
    return (
      <div className="verdict verdict-checking muted small" data-testid={testId} data-verdict="checking">
        {t(`verdict.${subject}.checking`)}
      </div>
    );
  }
  if (verdict.state === "failed") {
    return (
      <div className="verdict verdict-note" data-testid={testId} data-verdict="unknown">
        <Info size={14} aria-hidden /> {t(`verdict.${subject}.failed`, { message: verdict.message })}
      </div>
    );
  }
  const { report } = verdict;
  if (report.schema_error !== null) {
    return (
      <div className="verdict verdict-note" data-testid={testId} data-verdict="unchecked">
        <Info size={14} aria-hidden /> {t(`verdict.${subject}.unchecked`, { error: report.schema_error })}
      </div>
    );
  }
  if (report.valid) {
    return (
      <div className="verdict verdict-valid" data-testid={testId} data-verdict="valid">
        <CheckCircle2 size={14} aria-hidden /> {t(`verdict.${subject}.valid`)}
      </div>
    );
  }
  return (
    <div className="verdict verdict-invalid" data-testid={testId} data-verdict="invalid" role="status">
      <div className="verdict-title">
        <AlertTriangle size={14} aria-hidden /> {t(`verdict.${subject}.invalid`)}
      </div>
      <ul className="verdict-issues">
        {report.issues.map((issue, index) => (
          <li key={index}>
            <code className="verdict-path">{issue.path === "" ? t("verdict.root") : issue.path}</code> {issue.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
