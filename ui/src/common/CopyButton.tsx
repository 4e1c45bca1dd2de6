import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../ipc";
import { copyText } from "./clipboard";

/** Copies `text`; says whether it worked. `label` defaults to "Copy". */
export function CopyButton({ text, label, testId }: { text: string; label?: string; testId?: string }) {
  const { t } = useTranslation("common");
  const [state, setState] = useState<{ kind: "idle" | "copied" } | { kind: "error"; message: string }>({
    kind: "idle",
  });
  const copy = async () => {
    try {
      await copyText(text);
      setState({ kind: "copied" });
      window.setTimeout(() => setState({ kind: "idle" }), 1500);
    } catch (error) {
      setState({ kind: "error", message: errorMessage(error) });
    }
  };
  return (
    <span className="copy-button">
      <button type="button" className="button button-small" onClick={() => void copy()} data-testid={testId}>
        {state.kind === "copied" ? <Check size={14} aria-hidden /> : <Copy size={14} aria-hidden />}
        {state.kind === "copied" ? t("copied") : (label ?? t("copy"))}
      </button>
      {state.kind === "error" && <span className="inline-error">{t("copyFailed", { error: state.message })}</span>}
    </span>
  );
}
