// The steps of a sign-in while it runs, the current one with its elapsed time. Only what the UI
// knows is shown as done: the code exchange follows the browser with no sign of its own, so it
// stays "next" until the connection finishes.
import { Circle, CircleCheck, Loader2 } from "lucide-react";
import { useNow } from "../common/useNow";
import { useTranslation } from "react-i18next";
import { BROWSER_WAIT_MINUTES, formatDuration, type SignInPhase, type SignInProgress as Progress } from "./progress";

type Step = "discovery" | "approval" | "browser" | "exchange";
type StepState = "done" | "current" | "next";

const STEPS: readonly Step[] = ["discovery", "approval", "browser", "exchange"];
const ORDER: Record<SignInPhase, number> = { discovery: 0, approval: 1, browser: 2 };

export function SignInProgress({ progress }: { progress: Progress }) {
  const { t } = useTranslation("oauth");
  const now = useNow(1000);
  const current = ORDER[progress.phase];
  const stateOf = (index: number): StepState => (index < current ? "done" : index === current ? "current" : "next");
  // Discovery and registration are over when the dialog appears: how long they took, when known.
  const discoveryTook =
    progress.challengedAt !== null && progress.askedAt !== null ? progress.askedAt - progress.challengedAt : null;
  const detail = (step: Step): string | null => {
    switch (step) {
      case "discovery":
        return t("progress.discoveryDetail");
      case "approval":
        return t("progress.approvalDetail");
      case "browser":
        return t("progress.browserDetail", { count: BROWSER_WAIT_MINUTES });
      case "exchange":
        return null;
    }
  };
  return (
    <section className="sign-in-progress" data-testid="sign-in-progress" data-phase={progress.phase} aria-label={t("progress.title")}>
      <ol className="sign-in-progress-steps">
        {STEPS.map((step, index) => {
          const state = stateOf(index);
          const Icon = state === "done" ? CircleCheck : state === "current" ? Loader2 : Circle;
          return (
            <li key={step} className={`sign-in-progress-step is-${state}`} data-step={step} data-state={state}>
              <Icon size={14} aria-hidden className={state === "current" ? "spin" : undefined} />
              <div>
                <div className="sign-in-progress-label">
                  <span>{t(`progress.step.${step}`)}</span>
                  {state === "current" && (
                    <span className="sign-in-progress-time" data-testid="sign-in-elapsed">
                      {formatDuration(now - progress.since)}
                    </span>
                  )}
                  {state === "done" && step === "discovery" && discoveryTook !== null && (
                    <span className="sign-in-progress-time">{formatDuration(discoveryTook)}</span>
                  )}
                  <span className="sr-only">{t(`progress.state.${state}`)}</span>
                </div>
                {state === "current" && detail(step) && <div className="sign-in-progress-detail">{detail(step)}</div>}
                {step === "exchange" && state === "next" && progress.phase === "browser" && (
                  <div className="sign-in-progress-detail">{t("progress.exchangeDetail")}</div>
                )}
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
