import Form from "@rjsf/core";
import type { IChangeEvent } from "@rjsf/core";
import { AlertTriangle, ListChecks, Play } from "lucide-react";
import { useMemo, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { ErrorBoundary } from "../common/ErrorBoundary";
import { EmptyState } from "../common/EmptyState";
import { ErrorBox } from "../common/ErrorBox";
import type { JsonObject } from "../ipc";
import { isObject, pretty } from "../json";
import { formTemplates } from "./formTemplates";
import { SaveCallButton } from "../saved/SaveCallButton";
import { JsonEditor } from "./JsonEditor";
import { translateRjsf } from "./rjsfStrings";
import { declaresNoArguments, parseArguments, prepareSchema, schemaForCheck, schemaNotes } from "./schema";
import { describeGuard, guardReason } from "./schemaGuard";
import { shapeValidator } from "./shapeValidator";
import { defaultValidate, hasIssues, useVerdict, VerdictView, type Validate } from "./validation";
import { saveCallDialog } from "../state/saved";

interface Props {
  toolName: string;
  inputSchema: JsonValue | undefined;
  formData: JsonValue | undefined;
  running: boolean;
  onChange: (formData: JsonValue) => void;
  onCall: (args: JsonObject) => void;
  /** Offered when the tool may run as a task: "Run as task" beside Call. */
  onCallAsTask?: (args: JsonObject) => void;
  /** Checks the arguments (the Rust validator by default; none outside the app). */
  validate?: Validate | null;
}

/** The form's data as JSON (it is built from JSON and holds nothing else). */
function toJson(data: unknown): JsonValue {
  return data === undefined ? {} : (data as JsonValue);
}

const uiSchema = { "ui:submitButtonOptions": { norender: true } };

function CallButton({
  running,
  anyway,
  onSave,
  onTask,
}: {
  running: boolean;
  anyway: boolean;
  onSave?: () => void;
  onTask?: () => void;
}) {
  const { t } = useTranslation("tools");
  return (
    <div className="form-actions">
      <button
        type="submit"
        className={`button button-primary${anyway ? " button-warning" : ""}`}
        data-testid="call-tool-button"
        disabled={running}
        title={anyway ? t("form.callAnywayHint") : undefined}
      >
        {anyway ? <AlertTriangle size={14} aria-hidden /> : <Play size={14} aria-hidden />}
        {running ? t("form.calling") : anyway ? t("form.callAnyway") : t("form.call")}
      </button>
      {onTask && (
        <button type="button" className="button" data-testid="run-as-task-button" disabled={running} onClick={onTask}>
          <ListChecks size={14} aria-hidden />
          {t("form.runAsTask")}
        </button>
      )}
      {onSave && <SaveCallButton onClick={onSave} />}
    </div>
  );
}

/**
 * The tool's arguments: a form generated from its inputSchema, or raw JSON in CodeMirror; both
 * edit the same data. The arguments are checked against the schema (in Rust) and problems are
 * shown as warnings: the user may send invalid arguments on purpose.
 */
export function ToolForm({ toolName, inputSchema, formData, running, onChange, onCall, onCallAsTask, validate }: Props) {
  const { t } = useTranslation("tools");
  const guard = useMemo(() => guardReason(inputSchema), [inputSchema]);
  const prepared = useMemo(() => prepareSchema(inputSchema), [inputSchema]);
  // Put in words at each render, so a change of language shows at once.
  const notes = schemaNotes(inputSchema);
  const noArguments = declaresNoArguments(inputSchema);
  const checkSchema = useMemo(() => schemaForCheck(inputSchema), [inputSchema]);
  const validator = validate === undefined ? defaultValidate() : validate;
  const [mode, setMode] = useState<"form" | "json">(guard === null ? "form" : "json");
  const [jsonText, setJsonText] = useState(() => pretty(isObject(formData) ? formData : {}));
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [formBroken, setFormBroken] = useState(false);

  // What is checked: the form's data, or the JSON text when it parses to an object.
  const checked = useMemo<JsonValue | undefined>(() => {
    if (mode === "form") return isObject(formData) ? formData : {};
    const parsed = parseArguments(jsonText);
    return "args" in parsed ? parsed.args : undefined;
  }, [mode, formData, jsonText]);
  const verdict = useVerdict(validator, checkSchema, checked);
  const anyway = hasIssues(verdict);

  const showJson = () => {
    setJsonText(pretty(isObject(formData) ? formData : {}));
    setJsonError(null);
    setMode("json");
  };

  const editJson = (text: string) => {
    setJsonText(text);
    const parsed = parseArguments(text);
    if ("error" in parsed) {
      setJsonError(parsed.error);
    } else {
      setJsonError(null);
      // Keeps the form (and the remembered arguments) in step with the text.
      onChange(parsed.args);
    }
  };

  const submitJson = (event?: FormEvent, send: (args: JsonObject) => void = onCall) => {
    event?.preventDefault();
    if (running) return;
    const parsed = parseArguments(jsonText);
    if ("error" in parsed) {
      setJsonError(parsed.error);
      return;
    }
    setJsonError(null);
    onChange(parsed.args);
    send(parsed.args);
  };
  const formTask = onCallAsTask && (() => onCallAsTask(isObject(formData) ? formData : {}));
  const jsonTask = onCallAsTask && (() => submitJson(undefined, onCallAsTask));

  const formAllowed = guard === null && !formBroken;

  return (
    <div className="tool-form">
      <div className="form-toolbar">
        <div className="segmented" role="group" aria-label={t("form.editor")}>
          <button
            type="button"
            className={mode === "form" ? "active" : ""}
            disabled={!formAllowed}
            title={formAllowed ? undefined : t("form.formUnavailable")}
            onClick={() => setMode("form")}
          >
            {t("form.form")}
          </button>
          <button type="button" className={mode === "json" ? "active" : ""} onClick={() => showJson()}>
            {t("form.json")}
          </button>
        </div>
        {validator === null && <span className="muted small">{t("form.checkedInApp")}</span>}
      </div>
      {guard !== null && (
        <div className="form-fallback" data-testid="schema-fallback">
          <ErrorBox title={t("form.guardTitle")} message={t("form.guardMessage", { reason: describeGuard(guard) })} />
        </div>
      )}
      {notes.map((note) => (
        <p key={note} className="form-note">
          {note}
        </p>
      ))}
      {mode === "form" && formAllowed ? (
        <ErrorBoundary
          fallback={(error) => (
            <div className="form-fallback" data-testid="schema-fallback">
              <ErrorBox title={t("form.brokenTitle")} message={t("form.brokenMessage", { error: error.message })} />
              <button
                type="button"
                className="button"
                onClick={() => {
                  setFormBroken(true);
                  showJson();
                }}
              >
                {t("form.editAsJson")}
              </button>
            </div>
          )}
        >
          <Form
            schema={prepared.schema}
            uiSchema={uiSchema}
            validator={shapeValidator}
            templates={formTemplates}
            translateString={translateRjsf}
            formData={formData}
            idPrefix={`tool-${toolName}`}
            noValidate
            noHtml5Validate
            onError={() => undefined}
            omitExtraData
            onChange={(event: IChangeEvent) => onChange(toJson(event.formData))}
            onSubmit={(event: IChangeEvent) => {
              const data = toJson(event.formData);
              onCall(isObject(data) ? data : {});
            }}
          >
            {noArguments && (
              <EmptyState title={t("form.noArgumentsTitle")} testId="no-arguments">
                {t("form.noArguments")}
              </EmptyState>
            )}
            <VerdictView verdict={verdict} subject="arguments" testId="args-verdict" />
            <CallButton running={running} anyway={anyway} onSave={() => saveCallDialog("tool", toolName, isObject(formData) ? formData : {})} onTask={formTask} />
          </Form>
        </ErrorBoundary>
      ) : (
        <form onSubmit={submitJson} className="json-form">
          <JsonEditor
            value={jsonText}
            onChange={editJson}
            onSubmit={() => submitJson()}
            ariaLabel={t("form.jsonLabel")}
            placeholder={t("form.jsonPlaceholder")}
          />
          {jsonError && <ErrorBox message={jsonError} />}
          <VerdictView verdict={verdict} subject="arguments" testId="args-verdict" />
          <CallButton running={running} anyway={anyway} onSave={() => saveCallDialog("tool", toolName, isObject(formData) ? formData : {})} onTask={jsonTask} />
        </form>
      )}
    </div>
  );
}
