import { useEffect, useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { SecretSlot } from "../bindings/SecretSlot";
import type { ServerEntry } from "../bindings/ServerEntry";
import { saveEntry } from "../actions/catalog";
import { errorMessage, ipc } from "../ipc";
import { ErrorBox } from "../common/ErrorBox";
import { Dialog } from "../dialog/Dialog";
import { FormField } from "./FormField";
import { PairRows } from "./PairRows";
import { SignInOptions } from "./SignInOptions";
import {
  emptyForm,
  entryFromForm,
  ERA_OPTIONS,
  formFromEntry,
  isEraChoice,
  isHttpMode,
  MODE_OPTIONS,
  TRANSPORT_OPTIONS,
  type ServerFormValues,
  type Transport,
} from "./serverForm";
import { appSettings } from "../settings/appSettings";

interface Props {
  /** The entry to edit; none to add a new one. */
  entry: ServerEntry | null;
  /** True when the server is connected: the changes apply on the next connect. */
  connected: boolean;
  /** For a new entry: fields filled in already (a URL pasted in the welcome view). */
  initial?: Partial<ServerFormValues>;
  onClose: () => void;
}

// Examples in placeholders: commands, paths and URLs, the same in every language.
const EXAMPLE = {
  command: "npx",
  args: "-y\n@modelcontextprotocol/server-everything",
  url: "https://example.com/mcp",
  clientMetadataUrl: "https://example.com/periscope-client.json",
};

/** Add or edit a catalog entry, in a dialog. */
export function ServerForm({ entry, connected, initial, onClose }: Props) {
  const { t } = useTranslation(["sidebar", "common"]);
  const [values, setValues] = useState<ServerFormValues>(() =>
    entry ? formFromEntry(entry) : { ...emptyForm, era: appSettings().default_era, ...initial },
  );
  const [errors, setErrors] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const ids = useId();

  const [clientSecret, setClientSecret] = useState("");
  const [secretStored, setSecretStored] = useState(false);
  useEffect(() => {
    if (entry && entry.target.transport === "http") {
      void ipc.hasClientSecret(entry.id).then(setSecretStored, () => setSecretStored(false));
    }
  }, [entry]);
  type TextField = Exclude<
    keyof ServerFormValues,
    "transport" | "mode" | "env" | "headers" | "inheritEnv" | "era"
  >;
  const set = (field: TextField) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: event.target.value }));
  // A stored secret value, fetched from the keychain only when the user clicks "show".
  const reveal = (slot: SecretSlot) =>
    entry ? (name: string) => ipc.catalogSecret(entry.id, slot, name) : undefined;
  const setTransport = (transport: Transport) => {
    setValues((v) => ({ ...v, transport }));
    setErrors([]);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = entryFromForm(values, entry?.id ?? crypto.randomUUID());
    if (!parsed.entry) {
      setErrors(parsed.errors);
      return;
    }
    setSaving(true);
    let error = await saveEntry(parsed.entry);
    if (!error && parsed.entry.target.transport === "http" && clientSecret !== "") {
      // The secret goes to the keychain (or the 0600 file), never into the catalog.
      try {
        await ipc.setClientSecret(parsed.entry.id, clientSecret);
      } catch (e) {
        error = t("form.secretNotStored", { error: errorMessage(e) });
      }
    }
    setSaving(false);
    if (error) setErrors([error]);
    else onClose();
  };

  const title = entry ? t("form.editTitle", { name: entry.name }) : t("form.addTitle");
  return (
    <Dialog
      title={title}
      onClose={onClose}
      bodyClassName="form-grid"
      onSubmit={(e) => void submit(e)}
      aside={
        <>
          {connected && <p className="modal-note">{t("form.connectedNote")}</p>}
          {errors.length > 0 && (
            <div className="modal-errors">
              {errors.map((message) => (
                <ErrorBox key={message} message={message} />
              ))}
            </div>
          )}
        </>
      }
      dismiss={{ label: t("common:cancel"), testId: "server-form-cancel" }}
      footer={
        <button type="submit" className="button button-primary" data-testid="server-form-save" disabled={saving}>
          {saving ? t("form.saving") : t("common:save")}
        </button>
      }
    >
      <FormField
        id={`${ids}-name`}
        testId="server-form-name"
        label={t("common:name")}
        value={values.name}
        onChange={set("name")}
        autoFocus
        placeholder={t("form.namePlaceholder")}
        code={false}
      />
      <span className="form-label" id={`${ids}-transport`}>
        {t("form.transport")}
      </span>
      <div
        className="segmented"
        role="radiogroup"
        aria-labelledby={`${ids}-transport`}
        data-testid="server-form-transport"
        data-value={values.transport}
      >
        {TRANSPORT_OPTIONS.map((option) => (
          <button
            key={option.value}
            type="button"
            role="radio"
            aria-checked={values.transport === option.value}
            className={values.transport === option.value ? "active" : ""}
            data-value={option.value}
            onClick={() => setTransport(option.value)}
          >
            {t(option.label)}
          </button>
        ))}
      </div>
      {values.transport === "stdio" ? (
        <>
          <FormField id={`${ids}-command`} testId="server-form-command" label={t("form.command")} value={values.command} onChange={set("command")} placeholder={EXAMPLE.command} />
          <FormField
            id={`${ids}-args`}
            testId="server-form-args"
            label={t("form.args")}
            hint={t("form.argsHint")}
            rows={4}
            value={values.args}
            onChange={set("args")}
            placeholder={EXAMPLE.args}
          />
          <label htmlFor={`${ids}-env`}>
            {t("form.env")}
            <span className="field-hint">{t("form.secretsHint")}</span>
          </label>
          <PairRows
            kind="env"
            id={`${ids}-env`}
            testId="server-form-env"
            rows={values.env}
            onChange={(env) => setValues((v) => ({ ...v, env }))}
            reveal={reveal("env")}
          />
          <span className="form-label">{t("form.inherited")}</span>
          <label className="form-check" htmlFor={`${ids}-inherit-env`}>
            <input
              id={`${ids}-inherit-env`}
              type="checkbox"
              data-testid="server-form-inherit-env"
              checked={values.inheritEnv}
              onChange={(e) => setValues((v) => ({ ...v, inheritEnv: e.target.checked }))}
            />
            <span>
              {t("form.inheritEnv")}
              <span className="field-hint">{t("form.inheritEnvHint")}</span>
            </span>
          </label>
          <FormField
            id={`${ids}-cwd`}
            testId="server-form-cwd"
            label={t("form.cwd")}
            hint={t("form.optional")}
            value={values.cwd}
            onChange={set("cwd")}
            placeholder={t("form.cwdPlaceholder")}
          />
        </>
      ) : (
        <>
          <FormField id={`${ids}-url`} testId="server-form-url" label={t("form.url")} value={values.url} onChange={set("url")} placeholder={EXAMPLE.url} />
          <label htmlFor={`${ids}-headers`}>
            {t("form.headers")}
            <span className="field-hint">{t("form.secretsHint")}</span>
          </label>
          <PairRows
            kind="header"
            id={`${ids}-headers`}
            testId="server-form-headers"
            rows={values.headers}
            onChange={(headers) => setValues((v) => ({ ...v, headers }))}
            reveal={reveal("header")}
          />
          <fieldset className="form-group" data-testid="server-form-oauth">
            <legend>
              {t("form.signIn")}
              <span className="field-hint">{t("form.signInHint")}</span>
            </legend>
            <FormField
              id={`${ids}-client-id`}
              testId="server-form-client-id"
              label={t("form.clientId")}
              value={values.clientId}
              onChange={set("clientId")}
            />
            <FormField
              id={`${ids}-client-secret`}
              testId="server-form-client-secret"
              label={t("form.clientSecret")}
              hint={t("form.clientSecretHint")}
              type="password"
              code={false}
              value={clientSecret}
              placeholder={secretStored ? t("form.clientSecretStored") : ""}
              onChange={(e) => setClientSecret(e.target.value)}
            />
            <FormField
              id={`${ids}-cimd`}
              testId="server-form-cimd"
              label={t("form.clientMetadataUrl")}
              value={values.clientMetadataUrl}
              onChange={set("clientMetadataUrl")}
              placeholder={EXAMPLE.clientMetadataUrl}
            />
            <SignInOptions ids={ids} values={values} setValues={setValues} />
          </fieldset>
          <label htmlFor={`${ids}-mode`}>{t("form.httpMode")}</label>
          <select
            id={`${ids}-mode`}
            data-testid="server-form-mode"
            value={values.mode}
            onChange={(e) => {
              const mode = e.target.value;
              if (isHttpMode(mode)) setValues((v) => ({ ...v, mode }));
            }}
          >
            {MODE_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {t(option.label)}
              </option>
            ))}
          </select>
        </>
      )}
      <label htmlFor={`${ids}-era`}>{t("form.era")}</label>
      <select
        id={`${ids}-era`}
        data-testid="server-form-era"
        value={values.era}
        onChange={(e) => {
          const era = e.target.value;
          if (isEraChoice(era)) setValues((v) => ({ ...v, era }));
        }}
      >
        {ERA_OPTIONS.map((option) => (
          <option key={option.value} value={option.value}>
            {t(option.label)}
          </option>
        ))}
      </select>
    </Dialog>
  );
}
