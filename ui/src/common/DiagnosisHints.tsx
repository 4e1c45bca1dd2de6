import { Lightbulb } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { Diagnosis } from "../bindings/Diagnosis";
import type { TlsProblem } from "../bindings/TlsProblem";

/**
 * What to do next about a failure: the engine's diagnoses (the connection doctor), each worded
 * in the UI's language; what came from the server or the system (a command, a URL, a content
 * type, stderr) stays as it was. `onLegacy` offers the legacy era where a diagnosis says it works.
 */
export function DiagnosisHints({ diagnoses, onLegacy }: { diagnoses: readonly Diagnosis[]; onLegacy?: () => void }) {
  const { t } = useTranslation("common");
  if (diagnoses.length === 0) return null;
  return (
    <ul className="diagnosis-hints" data-testid="diagnoses">
      {diagnoses.map((diagnosis, index) => (
        <li key={index} data-testid="diagnosis" data-kind={diagnosis.kind}>
          <Lightbulb size={14} aria-hidden className="diagnosis-icon" />
          <span>{hintText(diagnosis, t)}</span>
          {diagnosis.kind === "needs_legacy_era" && onLegacy && (
            <button type="button" className="button button-small" data-testid="reconnect-legacy" onClick={onLegacy}>
              {t("doctor.reconnectLegacy")}
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

type T = ReturnType<typeof useTranslation<"common">>["t"];

/** One diagnosis in words. */
export function hintText(diagnosis: Diagnosis, t: T): string {
  switch (diagnosis.kind) {
    case "command_not_found":
      return diagnosis.missing_launchers.length > 0
        ? t("doctor.commandNotFoundLaunchers", { command: diagnosis.command, launchers: diagnosis.missing_launchers.join(", ") })
        : t("doctor.commandNotFound", { command: diagnosis.command });
    case "exited_early": {
      const how = howItEnded(diagnosis, t);
      return diagnosis.stderr_tail.length > 0 ? t("doctor.exitedEarlyStderr", { how }) : t("doctor.exitedEarlySilent", { how });
    }
    case "exited_after_ready": {
      const how = howItEnded(diagnosis, t);
      return diagnosis.stderr_tail.length > 0
        ? t("doctor.exitedAfterReadyStderr", { how })
        : t("doctor.exitedAfterReadySilent", { how });
    }
    case "stdout_closed":
      return t("doctor.stdoutClosed");
    case "wrong_path": {
      const there = diagnosis.answering[0];
      const head = { url: diagnosis.url, method: diagnosis.method, status: diagnosis.status };
      return there !== undefined ? t("doctor.wrongPathThere", { ...head, there }) : t("doctor.wrongPath", head);
    }
    case "tls":
      return tlsText(diagnosis.url, diagnosis.problem, t);
    case "unusable_challenge":
      return t("doctor.unusableChallenge", { status: diagnosis.status });
    case "wrong_content_type":
      return diagnosis.content_type === ""
        ? t("doctor.noContentType")
        : t("doctor.wrongContentType", { contentType: diagnosis.content_type });
    case "proxy_not_inherited":
      return t("doctor.proxyNotInherited", { names: diagnosis.names.join(", "), count: diagnosis.names.length });
    case "needs_legacy_era":
      return t("doctor.needsLegacyEra", {
        request: t(`doctor.request.${diagnosis.request}`),
        versions: diagnosis.legacy_versions.join(", "),
      });
  }
}

/** How a server process ended by itself: its exit status, or its signal. */
function howItEnded(ended: { exit_code: number | null; signal: number | null }, t: T): string {
  if (ended.exit_code !== null) return t("doctor.exitedWith", { code: ended.exit_code });
  if (ended.signal !== null) return t("doctor.killedBy", { signal: ended.signal });
  return t("doctor.ended");
}

function tlsText(url: string, problem: TlsProblem, t: T): string {
  switch (problem.kind) {
    case "wrong_name":
      return t("doctor.tlsWrongName", { url, expected: problem.expected ?? "", presented: problem.presented.join(", ") });
    case "expired":
      return t("doctor.tlsExpired", { url });
    case "not_yet_valid":
      return t("doctor.tlsNotYetValid", { url });
    case "untrusted_issuer":
      return t("doctor.tlsUntrusted", { url });
    case "other":
      return t("doctor.tlsOther", { url, detail: problem.detail });
  }
}
