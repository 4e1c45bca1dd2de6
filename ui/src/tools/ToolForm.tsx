import Form from "@rjsf/core";
import type { IChangeEvent } from "@rjsf/core";
import { customizeValidator } from "@rjsf/validator-ajv8";
import { Play } from "lucide-react";
import { useMemo, useState, type FormEvent } from "react";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { ErrorBoundary } from "../common/ErrorBoundary";
import { ErrorBox } from "../common/ErrorBox";
import type { JsonObject } from "../ipc";
import { isObject, pretty } from "../json";
import { formTemplates } from "./formTemplates";
import { evalAllowed, parseArguments, prepareSchema } from "./schema";
import { shapeValidator } from "./shapeValidator";

interface Props {
  toolName: string;
  inputSchema: JsonValue | undefined;
  formData: JsonValue | undefined;
  running: boolean;
  onChange: (formData: JsonValue) => void;
  onCall: (args: JsonObject) => void;
}

/** The form's data as JSON (it is built from JSON and holds nothing else). */
function toJson(data: unknown): JsonValue {
  return data === undefined ? {} : (data as JsonValue);
}

const uiSchema = { "ui:submitButtonOptions": { norender: true } };

function CallButton({ running }: { running: boolean }) {
  return (
    <div className="form-actions">
      <button type="submit" className="button button-primary" data-testid="call-tool-button" disabled={running}>
        <Play size={14} aria-hidden />
        {running ? "Calling…" : "Call"}
      </button>
    </div>
  );
}

/** The tool's arguments: a form generated from its inputSchema, or raw JSON. */
export function ToolForm({ toolName, inputSchema, formData, running, onChange, onCall }: Props) {
  const prepared = useMemo(() => {
    // One validator per schema: Ajv caches schemas by $id, and two tools may share one.
    const validator = evalAllowed() ? customizeValidator() : shapeValidator;
    return { ...prepareSchema(inputSchema, validator), validator };
  }, [inputSchema]);
  const [mode, setMode] = useState<"form" | "json">("form");
  const [validate, setValidate] = useState(prepared.canValidate);
  const [jsonText, setJsonText] = useState("");
  const [jsonError, setJsonError] = useState<string | null>(null);

  const showJson = (reason?: string) => {
    setJsonText(pretty(isObject(formData) ? formData : {}));
    setJsonError(reason ?? null);
    setMode("json");
  };

  const submitJson = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseArguments(jsonText);
    if ("error" in parsed) {
      setJsonError(parsed.error);
      return;
    }
    setJsonError(null);
    onChange(parsed.args);
    onCall(parsed.args);
  };

  return (
    <div className="tool-form">
      <div className="form-toolbar">
        <div className="segmented" role="group" aria-label="Argument editor">
          <button type="button" className={mode === "form" ? "active" : ""} onClick={() => setMode("form")}>
            Form
          </button>
          <button type="button" className={mode === "json" ? "active" : ""} onClick={() => showJson()}>
            JSON
          </button>
        </div>
        {mode === "form" && (
          <label className="checkbox-label" title="Check the arguments against the schema before calling">
            <input
              type="checkbox"
              checked={validate}
              disabled={!prepared.canValidate}
              onChange={(e) => setValidate(e.target.checked)}
            />
            Validate
          </label>
        )}
      </div>
      {prepared.notes.map((note) => (
        <p key={note} className="form-note">
          {note}
        </p>
      ))}
      {mode === "form" ? (
        <ErrorBoundary
          fallback={(error) => (
            <div className="form-fallback">
              <ErrorBox
                title="This input schema cannot be shown as a form"
                message={`${error.message}. Enter the arguments as JSON instead.`}
              />
              <button type="button" className="button" onClick={() => showJson()}>
                Edit as JSON
              </button>
            </div>
          )}
        >
          <Form
            schema={prepared.schema}
            uiSchema={uiSchema}
            validator={prepared.validator}
            templates={formTemplates}
            formData={formData}
            idPrefix={`tool-${toolName}`}
            noValidate={!validate || !prepared.canValidate}
            noHtml5Validate
            // The errors are shown in the form; don't also log them to the console.
            onError={() => undefined}
            showErrorList="bottom"
            omitExtraData
            onChange={(event: IChangeEvent) => onChange(toJson(event.formData))}
            onSubmit={(event: IChangeEvent) => {
              const data = toJson(event.formData);
              onCall(isObject(data) ? data : {});
            }}
          >
            <CallButton running={running} />
          </Form>
        </ErrorBoundary>
      ) : (
        <form onSubmit={submitJson} className="json-form">
          <textarea
            className="mono json-editor"
            aria-label="Arguments as JSON"
            value={jsonText}
            rows={Math.min(24, Math.max(6, jsonText.split("\n").length + 1))}
            onChange={(e) => setJsonText(e.target.value)}
            spellCheck={false}
          />
          {jsonError && <ErrorBox message={jsonError} />}
          <CallButton running={running} />
        </form>
      )}
    </div>
  );
}
