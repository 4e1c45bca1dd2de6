import { BookOpen, X } from "lucide-react";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { TemplateExpansion } from "../bindings/TemplateExpansion";
import { CompletionInput } from "../completion/CompletionInput";
import { errorMessage, resourcesIpc } from "../ipc";
import type { TemplateInfo } from "./resources";
import type { ServerState } from "../state/connections";
import { ServerText } from "../common/ServerText";

interface Props {
  server: ServerState;
  template: TemplateInfo;
  onRead: (uri: string) => void;
  onClose: () => void;
}

/** True when the server's handshake declared `completions`. */
export function offersCompletions(server: ServerState): boolean {
  return server.identity?.offers.completions ?? false;
}

/** What the other variables hold: a change asks for suggestions again. */
function contextKey(values: Record<string, string>, name: string): string {
  return JSON.stringify(
    Object.entries(values)
      .filter(([k, v]) => k !== name && v !== "")
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

/**
 * The engine's reading of the template with these values (RFC 6570, `fill_resource_template`):
 * its variables, the URI, what is still missing; null until the first answer. A late answer for
 * values since changed is dropped.
 */
function useExpansion(uriTemplate: string, values: Record<string, string>): TemplateExpansion | null {
  const [expansion, setExpansion] = useState<TemplateExpansion | null>(null);
  useEffect(() => {
    let current = true;
    resourcesIpc.fillTemplate(uriTemplate, values).then(
      (filled) => current && setExpansion(filled),
      (error: unknown) =>
        current && setExpansion({ variables: [], uri: "", missing: [], error: errorMessage(error) }),
    );
    return () => {
      current = false;
    };
  }, [uriTemplate, values]);
  return expansion;
}

/** A field per template variable (with the server's suggestions), the URI they make, and Read. */
export function TemplateForm({ server, template, onRead, onClose }: Props) {
  const { t } = useTranslation("resources");
  const [values, setValues] = useState<Record<string, string>>({});
  const expansion = useExpansion(template.uriTemplate, values);
  const error = expansion?.error ?? null;
  const variables = expansion?.variables ?? [];
  const uri = expansion?.uri ?? "";
  const missing = expansion?.missing ?? [];
  const ready = expansion !== null && error === null;
  const completes = offersCompletions(server);

  const fetchFor = (name: string) => (value: string) => {
    const context: Record<string, string> = {};
    for (const [k, v] of Object.entries(values)) if (k !== name && v !== "") context[k] = v;
    return resourcesIpc.complete(
      server.id,
      { type: "ref/resource", uri: template.uriTemplate },
      name,
      value,
      Object.keys(context).length > 0 ? context : null,
    );
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (ready && missing.length === 0) onRead(uri);
  };

  return (
    <form className="template-form" data-testid="template-form" onSubmit={submit}>
      <div className="template-form-title">
        <strong>{template.title ?? template.name ?? t("template.untitled")}</strong>
        <span className="mono small muted">{template.uriTemplate}</span>
        <span className="spacer" />
        <button type="button" className="icon-button" aria-label={t("template.close")} onClick={onClose}>
          <X size={14} aria-hidden />
        </button>
      </div>
      {template.description && (
        <p className="description">
          <ServerText text={template.description} />
        </p>
      )}
      {error !== null && <div className="inline-error">{t("template.invalid", { error })}</div>}
      <div className="template-fields">
        {variables.map((v) => (
          <label key={v.name} className="field">
            <span className="field-label mono">{v.name}</span>
            <CompletionInput
              value={values[v.name] ?? ""}
              onChange={(value) => setValues((old) => ({ ...old, [v.name]: value }))}
              fetch={completes ? fetchFor(v.name) : null}
              completionKey={contextKey(values, v.name)}
              testId="template-var"
              name={v.name}
              required={v.required}
            />
          </label>
        ))}
      </div>
      <div className="form-actions template-actions">
        <span className="mono template-uri" data-testid="template-uri" title={t("template.uriTitle")}>
          {uri}
        </span>
        <button
          type="submit"
          className="button button-primary"
          data-testid="template-read"
          disabled={!ready || missing.length > 0}
          title={
            missing.length > 0
              ? t("template.fillIn", { names: missing.join(", ") })
              : t("template.readUri", { uri })
          }
        >
          <BookOpen size={14} aria-hidden />
          {t("read")}
        </button>
      </div>
    </form>
  );
}
