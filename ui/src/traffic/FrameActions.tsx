import { ArrowRightLeft, Check, Globe, Terminal } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { FrameDetail } from "../bindings/FrameDetail";
import { showExchange } from "../actions/view";
import { copyText } from "../common/clipboard";
import { CopyButton } from "../common/CopyButton";
import { errorMessage, ipc } from "../ipc";

/**
 * What a frame's detail can do: jump to its request or response, open the HTTP exchange that
 * carried it, and copy it as JSON or as a `periscope raw` command line (the exact bytes have
 * their own Copy below).
 */
export function FrameActions({
  serverId,
  detail,
  onJump,
}: {
  serverId: string;
  detail: FrameDetail;
  /** Selects another frame and brings it into view. */
  onJump: (seq: number) => void;
}) {
  const { t } = useTranslation("traffic");
  const partner = detail.partner_seq;
  const isResponse = detail.verdict.kind === "response";
  return (
    <div className="frame-actions" data-testid="frame-actions">
      {partner !== null && (
        <button
          type="button"
          className="button button-small"
          data-testid={isResponse ? "frame-go-request" : "frame-go-response"}
          onClick={() => onJump(partner)}
        >
          <ArrowRightLeft size={13} aria-hidden />
          {isResponse ? t("actions.request", { seq: partner }) : t("actions.response", { seq: partner })}
        </button>
      )}
      {detail.exchange !== null && (
        <button
          type="button"
          className="button button-small"
          data-testid="frame-go-exchange"
          onClick={() => showExchange(serverId, detail.exchange!)}
        >
          <Globe size={13} aria-hidden />
          {t("actions.exchange", { seq: detail.exchange })}
        </button>
      )}
      {detail.pretty !== null && <CopyButton text={detail.pretty} label={t("actions.copyJson")} testId="copy-frame-json" />}
      {detail.text !== null && <CopyRawCommand serverId={serverId} seq={detail.seq} />}
    </div>
  );
}

/** Copies the frame as a `periscope raw` command line (the app writes it: no secret in it). */
function CopyRawCommand({ serverId, seq }: { serverId: string; seq: number }) {
  const { t } = useTranslation(["traffic", "common"]);
  const [state, setState] = useState<{ kind: "idle" | "copied" } | { kind: "error"; message: string }>({ kind: "idle" });
  const copy = async () => {
    try {
      await copyText(await ipc.frameRawCommand(serverId, seq));
      setState({ kind: "copied" });
      window.setTimeout(() => setState({ kind: "idle" }), 1500);
    } catch (error) {
      setState({ kind: "error", message: errorMessage(error) });
    }
  };
  return (
    <span className="copy-button">
      <button
        type="button"
        className="button button-small"
        data-testid="copy-frame-raw"
        title={t("actions.copyRawTitle")}
        onClick={() => void copy()}
      >
        {state.kind === "copied" ? <Check size={13} aria-hidden /> : <Terminal size={13} aria-hidden />}
        {state.kind === "copied" ? t("common:copied") : t("actions.copyRaw")}
      </button>
      {state.kind === "error" && <span className="inline-error">{t("common:copyFailed", { error: state.message })}</span>}
    </span>
  );
}
