import { Send } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ResendOutcome } from "../bindings/ResendOutcome";
import { ErrorBox } from "../common/ErrorBox";
import { Dialog } from "../dialog/Dialog";
import { errorMessage, resendIpc } from "../ipc";
import { useConnections } from "../state/connections";
import { ServerPicker, useConnectedServers } from "./ServerPicker";

let resent = 0;

/**
 * The request's JSON with a fresh id (so it cannot be taken for the recorded one), on one line:
 * a stdio server reads one message a line, so a pretty-printed one would arrive in pieces.
 */
export function withFreshId(text: string, id: string): string {
  try {
    const message = JSON.parse(text) as unknown;
    if (typeof message === "object" && message !== null && !Array.isArray(message) && "id" in message) {
      return JSON.stringify({ ...message, id });
    }
  } catch {
    // Not JSON: offered as it was.
  }
  return text;
}

/** "Edit and re-send" on a client→server request (live or recorded). */
export function ResendButton({ text, serverId }: { text: string; serverId: string }) {
  const { t } = useTranslation("recordings");
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button button-small" data-testid="resend-button" onClick={() => setOpen(true)}>
        <Send size={12} aria-hidden />
        {t("resend.button")}
      </button>
      {open && <ResendDialog text={text} serverId={serverId} onClose={() => setOpen(false)} />}
    </>
  );
}

/**
 * The editor: the exact bytes that will be sent, the server they go to, and Send. Nothing is
 * sent before the click; the answer shows here and the frames land in that server's Traffic.
 */
function ResendDialog({ text, serverId, onClose }: { text: string; serverId: string; onClose: () => void }) {
  const { t } = useTranslation(["recordings", "common"]);
  const connected = useConnectedServers();
  const [body, setBody] = useState(() => withFreshId(text, `resend-${(resent += 1)}`));
  const [target, setTarget] = useState(() => (connected.some((s) => s.id === serverId) ? serverId : (connected[0]?.id ?? "")));
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<ResendOutcome | null>(null);
  const [error, setError] = useState<string | null>(null);
  const targetName = useConnections((s) => s.catalog.find((e) => e.id === target)?.name ?? "");
  const send = async () => {
    setBusy(true);
    setError(null);
    setOutcome(null);
    try {
      setOutcome(await resendIpc.resendFrame(target, body));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      title={t("resend.title")}
      onClose={onClose}
      testId="resend-dialog"
      className="modal-wide"
      dismiss={{ label: t("common:close") }}
      footer={
        <button
          type="button"
          className="button button-primary"
          data-testid="resend-send"
          disabled={busy || !target}
          onClick={() => void send()}
        >
          <Send size={14} aria-hidden />
          {t("resend.send")}
        </button>
      }
    >
      <ServerPicker value={target} onChange={setTarget} testId="resend-server" />
      <label className="field">
        <span className="field-label">{t("resend.bytes")}</span>
        <textarea
          className="mono resend-editor"
          data-testid="resend-editor"
          rows={12}
          spellCheck={false}
          value={body}
          onChange={(e) => setBody(e.target.value)}
        />
      </label>
      {target && <p className="muted" data-testid="resend-consent">{t("resend.consent", { server: targetName })}</p>}
      {error && <ErrorBox message={error} />}
      {outcome && (
        <section className="section" data-testid="resend-result">
          <h3>{t("resend.answer", { seq: outcome.sent_seq })}</h3>
          {outcome.responses.map((r, i) => (
            <pre key={i} className="code-block" data-testid="resend-response">
              {JSON.stringify(r, null, 2)}
            </pre>
          ))}
          {outcome.unanswered.length > 0 && <p className="text-warning">{t("resend.unanswered", { ids: outcome.unanswered.join(", ") })}</p>}
        </section>
      )}
    </Dialog>
  );
}
