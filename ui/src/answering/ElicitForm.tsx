import { MessageSquareText } from "lucide-react";
import { useId, useMemo, useState, type FormEvent, type ReactNode } from "react";
import { Trans, useTranslation } from "react-i18next";
import type { ElicitAction } from "../bindings/ElicitAction";
import type { FormField } from "../bindings/FormField";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { constraintHint, fieldsOf, initialValues, toContent, validate, type Field, type FormValues } from "./formSchema";
import "../styles/answering.css";

interface Props {
  serverName: string;
  message: string;
  /** The fields the engine read from the request's `requestedSchema`, in order. */
  fields: FormField[];
  onAnswer: (action: ElicitAction, content: JsonValue | null) => void;
}

const INPUT_TYPES = { text: "text", email: "email", uri: "url", date: "date", datetime: "datetime-local" } as const;

interface FieldProps {
  field: Field;
  id: string;
  value: string | boolean | string[] | undefined;
  error: string | undefined;
  onChange: (value: string | boolean | string[]) => void;
}

/** One field: its label, input, help text and error. */
function FieldView({ field, id, value, error, onChange }: FieldProps) {
  const { t } = useTranslation(["answering", "common"]);
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const hint = constraintHint(field);
  const hasHelp = Boolean(field.description || field.note || hint);
  const describedBy = [hasHelp ? helpId : null, error ? errorId : null].filter(Boolean).join(" ");
  const common = {
    id,
    "data-testid": `elicit-field-${field.name}`,
    "aria-invalid": error ? true : undefined,
    "aria-required": field.required || undefined,
    "aria-describedby": describedBy || undefined,
  };
  const marker = field.required && (
    <span className="required" aria-hidden title={t("elicit.required")}>
      *
    </span>
  );
  const help = hasHelp && (
    <span className="elicit-help" id={helpId}>
      {field.description && <span className="elicit-description">{field.description}</span>}
      {hint && <span className="field-hint">{hint}</span>}
      {field.note && <span className="form-note">{field.note}</span>}
    </span>
  );
  const errorLine = error && (
    <span className="inline-error" id={errorId} data-testid={`elicit-error-${field.name}`}>
      {error}
    </span>
  );
  const text = typeof value === "string" ? value : "";

  let control: ReactNode;
  switch (field.kind) {
    case "boolean":
      return (
        <div className="field elicit-field">
          <label className="elicit-checkbox" htmlFor={id}>
            <input {...common} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
            <span className="field-label">
              {field.label}
              {marker}
            </span>
          </label>
          {help}
          {errorLine}
        </div>
      );
    case "multiselect": {
      const chosen = Array.isArray(value) ? value : [];
      const toggle = (option: string, on: boolean) =>
        onChange(field.options.map((o) => o.value).filter((v) => (v === option ? on : chosen.includes(v))));
      return (
        <fieldset
          className="field elicit-field elicit-multi"
          data-testid={common["data-testid"]}
          aria-describedby={common["aria-describedby"]}
        >
          <legend className="field-label">
            {field.label}
            {marker}
          </legend>
          {help}
          <div className="elicit-options">
            {field.options.map((option) => (
              <label key={option.value} className="elicit-checkbox">
                <input
                  type="checkbox"
                  data-testid={`elicit-option-${field.name}-${option.value}`}
                  checked={chosen.includes(option.value)}
                  onChange={(e) => toggle(option.value, e.target.checked)}
                />
                {option.label}
              </label>
            ))}
          </div>
          {errorLine}
        </fieldset>
      );
    }
    case "select": {
      const withNone = !(field.required && field.default !== undefined);
      control = (
        <select {...common} value={text} onChange={(e) => onChange(e.target.value)}>
          {withNone && <option value="">{field.required ? t("elicit.choose") : t("elicit.noChoice")}</option>}
          {field.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      );
      break;
    }
    case "number":
    case "integer":
      control = (
        <input
          {...common}
          type="number"
          min={field.constraints.minimum}
          max={field.constraints.maximum}
          step={field.kind === "integer" ? 1 : "any"}
          value={text}
          onChange={(e) => onChange(e.target.value)}
        />
      );
      break;
    default:
      control = (
        <input
          {...common}
          type={INPUT_TYPES[field.kind]}
          step={field.kind === "datetime" ? 1 : undefined}
          value={text}
          onChange={(e) => onChange(e.target.value)}
          spellCheck={field.kind === "text"}
        />
      );
  }
  return (
    <div className="field elicit-field">
      <label className="field-label" htmlFor={id}>
        {field.label}
        {marker}
      </label>
      {control}
      {help}
      {errorLine}
    </div>
  );
}

/**
 * A server's form elicitation (`elicitation/create`, form mode): its message, one input per
 * field of the requested schema, and the three answers. Key it by request so a new request
 * starts from a fresh form.
 */
export function ElicitForm({ serverName, message, fields: read, onAnswer }: Props) {
  const { t } = useTranslation(["answering", "common"]);
  const fields = useMemo(() => fieldsOf(read), [read]);
  const [values, setValues] = useState<FormValues>(() => initialValues(fields));
  const [tried, setTried] = useState(false);
  const ids = useId();
  // Errors show once the user has tried to accept, and follow the values from then on.
  const errors = tried ? validate(fields, values) : {};
  const errorCount = Object.keys(errors).length;

  const accept = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (Object.keys(validate(fields, values)).length > 0) return;
    onAnswer("accept", toContent(fields, values));
  };

  return (
    <form className="host-card elicit-form" data-testid="elicit-form" onSubmit={accept} noValidate aria-labelledby={`${ids}-title`}>
      <header className="host-card-header">
        <MessageSquareText size={16} aria-hidden className="host-card-icon" />
        <h2 id={`${ids}-title`}>
          <Trans
            t={t}
            i18nKey="elicit.title"
            values={{ server: serverName }}
            components={{ server: <span className="host-server" /> }}
          />
        </h2>
      </header>
      <p className="host-message">{message}</p>
      {fields.length === 0 ? (
        <p className="muted">{t("elicit.noFields")}</p>
      ) : (
        <div className="elicit-fields">
          {fields.map((field, index) => (
            <FieldView
              key={field.name}
              field={field}
              id={`${ids}-f${index}`}
              value={values[field.name]}
              error={errors[field.name]}
              onChange={(value) => setValues((v) => ({ ...v, [field.name]: value }))}
            />
          ))}
        </div>
      )}
      {errorCount > 0 && (
        <p className="inline-error" role="alert">
          {t("elicit.needAttention", { count: errorCount })}
        </p>
      )}
      <div className="host-actions">
        <button type="submit" className="button button-primary" data-testid="elicit-accept">
          {t("common:accept")}
        </button>
        <button type="button" className="button" data-testid="elicit-decline" onClick={() => onAnswer("decline", null)}>
          {t("common:decline")}
        </button>
        <button type="button" className="button" data-testid="elicit-cancel" onClick={() => onAnswer("cancel", null)}>
          {t("common:cancel")}
        </button>
      </div>
      <p className="host-hint">{t("elicit.hint")}</p>
    </form>
  );
}
