// The server form's sign-in options beyond the client identity: DPoP-bound tokens (RFC 9449)
// and workload identity (SEP-1933), where the workload's JWT is read at each sign-in.
import type { Dispatch, SetStateAction } from "react";
import { useTranslation } from "react-i18next";
import { FormField } from "./FormField";
import {
  DPOP_OPTIONS,
  isDpopMode,
  isWorkloadSourceKind,
  WORKLOAD_OPTIONS,
  type ServerFormValues,
} from "./serverForm";

interface Props {
  /** The form's id prefix. */
  ids: string;
  values: ServerFormValues;
  setValues: Dispatch<SetStateAction<ServerFormValues>>;
}

// Where a workload's token may be: examples, the same in every language.
const EXAMPLE_FILE = "/var/run/secrets/tokens/mcp-token";
const EXAMPLE_VARIABLE = "MCP_WORKLOAD_TOKEN";

export function SignInOptions({ ids, values, setValues }: Props) {
  const { t } = useTranslation(["sidebar", "common"]);
  return (
    <>
      <label htmlFor={`${ids}-dpop`}>
        {t("signIn.dpop")}
        <span className="field-hint">{t("signIn.dpopHint")}</span>
      </label>
      <select
        id={`${ids}-dpop`}
        data-testid="server-form-dpop"
        value={values.dpop}
        onChange={(e) => {
          const dpop = e.target.value;
          if (isDpopMode(dpop)) setValues((v) => ({ ...v, dpop }));
        }}
      >
        {DPOP_OPTIONS.map((option) => (
          <option key={option.value} value={option.value}>
            {t(option.label)}
          </option>
        ))}
      </select>
      <label htmlFor={`${ids}-workload`}>
        {t("signIn.workload")}
        <span className="field-hint">{t("signIn.workloadHint")}</span>
      </label>
      <select
        id={`${ids}-workload`}
        data-testid="server-form-workload"
        value={values.workloadSource}
        onChange={(e) => {
          const workloadSource = e.target.value;
          if (isWorkloadSourceKind(workloadSource)) setValues((v) => ({ ...v, workloadSource }));
        }}
      >
        {WORKLOAD_OPTIONS.map((option) => (
          <option key={option.value} value={option.value}>
            {t(option.label)}
          </option>
        ))}
      </select>
      {values.workloadSource !== "none" && (
        <FormField
          id={`${ids}-workload-value`}
          testId="server-form-workload-value"
          label={values.workloadSource === "file" ? t("signIn.tokenFile") : t("signIn.variable")}
          hint={t("signIn.valueHint")}
          value={values.workloadValue}
          onChange={(e) => setValues((v) => ({ ...v, workloadValue: e.target.value }))}
          placeholder={
            values.workloadSource === "file" ? EXAMPLE_FILE : EXAMPLE_VARIABLE
          }
        />
      )}
    </>
  );
}
