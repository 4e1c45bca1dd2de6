// The server's requests that wait for the user, one at a time, oldest first, above everything:
// a server that asks is blocked until the user answers, so the question must not hide in a tab.
import { messageText, offerToComposer } from "../playground/offers";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { answerAsk } from "../actions/asks";
import { setTab } from "../actions/view";
import type { Answer } from "../bindings/Answer";
import type { PendingAsk } from "../bindings/PendingAsk";
import { ErrorBox } from "../common/ErrorBox";
import { AppMessage } from "../answering/AppMessage";
import { AppOpenLink } from "../answering/AppOpenLink";
import { ElicitForm } from "../answering/ElicitForm";
import { SamplingPanel } from "../answering/SamplingPanel";
import { UrlConsentDialog } from "../answering/UrlConsentDialog";
import { SignInDialog } from "./SignInDialog";
import { useAsks } from "../state/asks";

export function AskDialog() {
  const { t } = useTranslation("asks");
  const ask = useAsks((s) => s.pending.first());
  const waiting = useAsks((s) => s.pending.size);
  const [error, setError] = useState<string | null>(null);
  if (!ask) {
    return error ? (
      <div className="ask-error-toast" data-testid="ask-error">
        <ErrorBox message={error} />
        <button type="button" onClick={() => setError(null)}>
          {t("dismiss")}
        </button>
      </div>
    ) : null;
  }
  const send = (answer: Answer) => {
    void answerAsk(ask.ask_id, answer).then(setError);
  };
  return (
    <div className="ask-backdrop">
      <div
        className="ask-dialog"
        role="dialog"
        aria-modal="true"
        aria-label={t("dialogLabel", { server: ask.server_name })}
        data-testid="ask-dialog"
        data-kind={ask.ask.kind}
        data-server-id={ask.server_id}
      >
        {waiting > 1 && (
          <div className="ask-queue" data-testid="ask-queue">
            {t("queue", { count: waiting })}
          </div>
        )}
        {error && <ErrorBox message={error} />}
        <AskBody key={ask.ask_id} ask={ask} send={send} />
      </div>
    </div>
  );
}

function AskBody({ ask, send }: { ask: PendingAsk; send: (answer: Answer) => void }) {
  const a = ask.ask;
  switch (a.kind) {
    case "elicit_form":
      return (
        <ElicitForm
          serverName={ask.server_name}
          message={a.message}
          fields={a.view.request.mode === "form" ? a.view.request.fields : []}
          onAnswer={(action, content) => send({ kind: "elicit", action, content })}
        />
      );
    case "elicit_url":
      return (
        <UrlConsentDialog
          serverName={ask.server_name}
          message={a.message}
          url={a.url}
          analysis={a.analysis}
          onDecide={(decision) => send({ kind: "url_consent", decision })}
        />
      );
    case "sign_in":
      return (
        <SignInDialog
          serverId={ask.server_id}
          serverName={ask.server_name}
          prompt={a.prompt}
          receivedWallUs={ask.received_wall_us}
          onDecide={(proceed) => send({ kind: "sign_in", proceed })}
        />
      );
    case "app_open_link":
      return (
        <AppOpenLink
          serverName={ask.server_name}
          app={a.app}
          url={a.url}
          analysis={a.analysis}
          onDecide={(decision) => send({ kind: "url_consent", decision })}
        />
      );
    case "app_message":
      return (
        <AppMessage
          serverName={ask.server_name}
          app={a.app}
          blocks={a.blocks}
          onAnswer={(accept) => {
            send({ kind: "app_message", accept });
            if (accept) {
              // Accepted: the message goes to the server's Playground, into the message box.
              offerToComposer(ask.server_id, messageText(a.blocks));
              setTab(ask.server_id, "playground");
            }
          }}
        />
      );
    case "sampling":
      return (
        <SamplingPanel
          serverName={ask.server_name}
          askId={ask.ask_id}
          serverId={ask.server_id}
          request={a.view}
          onReply={(result) => send({ kind: "sampling_reply", result })}
          onReject={(reason) => send({ kind: "sampling_reject", reason })}
        />
      );
  }
}
