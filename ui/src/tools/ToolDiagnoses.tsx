import { useEffect, useState } from "react";
import { reconnectLegacy } from "../actions/connections";
import type { Diagnosis } from "../bindings/Diagnosis";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { DiagnosisHints } from "../common/DiagnosisHints";
import { ipc } from "../ipc";
import type { ToolResultView } from "../bindings/ToolResultView";
import type { RequestState } from "../state/calls";

/**
 * What to do about a tool call that failed: the doctor's diagnoses of a protocol error (they
 * come with it), or of an `isError` result (asked of the engine once per result), with
 * **Reconnect in the legacy era** where that is where the tool works.
 */
export function ToolDiagnoses({ serverId, call }: { serverId: string; call: RequestState<ToolResultView> }) {
  // The JSON as sent goes to the doctor, which reads it itself.
  const result = call.status === "done" ? (call.result?.raw ?? null) : null;
  const [asked, setAsked] = useState<{ result: JsonValue; diagnoses: Diagnosis[] } | null>(null);
  const isError = call.status === "done" && call.result?.is_error === true;
  useEffect(() => {
    if (!isError || result === null) return;
    let current = true;
    ipc.diagnoseToolResult(serverId, result).then(
      (diagnoses) => current && setAsked({ result, diagnoses }),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [serverId, result, isError]);
  const diagnoses = call.status === "error" ? (call.diagnoses ?? []) : asked?.result === result ? asked.diagnoses : [];
  return <DiagnosisHints diagnoses={diagnoses} onLegacy={() => void reconnectLegacy(serverId)} />;
}
