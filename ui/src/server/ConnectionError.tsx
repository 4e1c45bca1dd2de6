import { useTranslation } from "react-i18next";
import { reconnectLegacy } from "../actions/connections";
import { DiagnosisHints } from "../common/DiagnosisHints";
import { ErrorBox } from "../common/ErrorBox";
import { problemText } from "../i18n/problem";
import type { ServerState } from "../state/connections";

/** Why the connection failed, with the server's last stderr lines; or what an action rejected. */
export function ConnectionError({ server }: { server: ServerState }) {
  const { t } = useTranslation("server");
  const status = server.status;
  const failed = status.state === "failed" ? status : null;
  const error = failed ? problemText(failed.error) : null;
  const extra = server.actionError && server.actionError !== error ? server.actionError : null;
  return (
    <>
      {failed && (
        <ErrorBox title={t("failed.title")} message={error ?? ""} testId="connection-error">
          {failed.stderr_tail.length > 0 && (
            <>
              <div className="error-box-subtitle">{t("failed.stderr")}</div>
              <pre className="code-block stderr-tail">{failed.stderr_tail.join("\n")}</pre>
            </>
          )}
          <DiagnosisHints diagnoses={failed.diagnoses} onLegacy={() => void reconnectLegacy(server.id)} />
        </ErrorBox>
      )}
      {extra && <ErrorBox message={extra} />}
    </>
  );
}
