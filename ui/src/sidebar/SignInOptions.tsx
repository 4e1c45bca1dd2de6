// The server form's sign-in options beyond the client identity: DPoP-bound tokens (RFC 9449)
// and workload identity (SEP-1933), where the workload's JWT is read at each sign-in.
import type { Dispatch, SetStateAction } from "react";
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

export function SignInOptions({ ids, values, setValues }: Props) {
  return (
    <>
      <label htmlFor={`${ids}-dpop`}>
        DPoP
        <span className="field-hint">tokens bound to a key Periscope holds, with a proof on each request</span>
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
            {option.label}
          </option>
        ))}
      </select>
      <label htmlFor={`${ids}-workload`}>
        Workload identity
        <span className="field-hint">sign in with a JWT the platform issues (JWT bearer grant), no browser</span>
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
            {option.label}
          </option>
        ))}
      </select>
      {values.workloadSource !== "none" && (
        <FormField
          id={`${ids}-workload-value`}
          testId="server-form-workload-value"
          label={values.workloadSource === "file" ? "Token file" : "Variable"}
          hint="read at each sign-in; the token itself is never in the catalog"
          value={values.workloadValue}
          onChange={(e) => setValues((v) => ({ ...v, workloadValue: e.target.value }))}
          placeholder={
            values.workloadSource === "file" ? "/var/run/secrets/tokens/mcp-token" : "MCP_WORKLOAD_TOKEN"
          }
        />
      )}
    </>
  );
}
