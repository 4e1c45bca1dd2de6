import { X } from "lucide-react";
import { useEffect, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import type { Flag } from "../bindings/Flag";
import type { FrameDetail } from "../bindings/FrameDetail";
import type { RoundFrames } from "../bindings/RoundFrames";
import type { Violation } from "../bindings/Violation";
import { CopyButton } from "../common/CopyButton";
import { ErrorBox } from "../common/ErrorBox";
import { formatBytes, formatNumber, formatTime } from "../format";
import { errorMessage, ipc } from "../ipc";
import { ResendButton } from "../recordings/ResendDialog";
import { describeFlag, describeVerdict } from "./describe";
import { FrameActions } from "./FrameActions";

type Load = { kind: "loading" } | { kind: "error"; message: string } | { kind: "loaded"; detail: FrameDetail };

/** Everything about one frame. Mount it with `key={seq}`: it fetches once. */
export function FrameDetailPane({
  serverId,
  seq,
  refresh,
  onSelect,
  onClose,
}: {
  serverId: string;
  seq: number;
  /** Changes when the checks found more: the frame's flags may come after the first fetch. */
  refresh?: number;
  /** Selects another frame and brings it into view (its request or response, a round of the same call). */
  onSelect: (seq: number) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation(["traffic", "common"]);
  const [load, setLoad] = useState<Load>({ kind: "loading" });
  useEffect(() => {
    let live = true;
    ipc.frameDetail(serverId, seq).then(
      (detail) => live && setLoad({ kind: "loaded", detail }),
      (error: unknown) => live && setLoad({ kind: "error", message: errorMessage(error) }),
    );
    return () => {
      live = false;
    };
  }, [serverId, seq, refresh]);

  return (
    <aside className="frame-detail" data-testid="frame-detail" aria-label={t("detail.label", { seq })}>
      <header className="frame-detail-header">
        <span className="frame-detail-title">{t("detail.title", { seq })}</span>
        <button type="button" className="icon-button" onClick={onClose} aria-label={t("common:close")} title={t("common:close")}>
          <X size={14} aria-hidden />
        </button>
      </header>
      <div className="frame-detail-body scroll-area">
        {load.kind === "loading" && <p className="muted">{t("common:loading")}</p>}
        {load.kind === "error" && <ErrorBox title={t("detail.loadFailed")} message={load.message} />}
        {load.kind === "loaded" && (
          <>
            <FrameActions serverId={serverId} detail={load.detail} onJump={onSelect} />
            <FrameDetailBody serverId={serverId} detail={load.detail} flags={load.detail.flags} onSelect={onSelect} />
          </>
        )}
      </div>
    </aside>
  );
}

function FrameDetailBody({
  serverId,
  detail,
  flags,
  onSelect,
}: {
  serverId: string;
  detail: FrameDetail;
  flags: readonly Flag[];
  onSelect: (seq: number) => void;
}) {
  const { t } = useTranslation(["traffic", "common"]);
  const exact = detail.text ?? detail.base64 ?? "";
  const verdictBad = ["not_utf8", "not_json", "not_json_rpc"].includes(detail.verdict.kind);
  return (
    <>
      <dl className="facts compact">
        <dt>{t("detail.direction")}</dt>
        <dd>{detail.direction === "out" ? t("detail.out") : t("detail.in")}</dd>
        <dt>{t("detail.time")}</dt>
        <dd className="mono">{formatTime(detail.wall_us)}</dd>
        <dt>{t("detail.size")}</dt>
        <dd>{t("detail.sizeValue", { count: detail.size, size: formatBytes(detail.size), bytes: formatNumber(detail.size) })}</dd>
        <dt>{t("detail.verdict")}</dt>
        <dd className={verdictBad ? "text-danger" : undefined}>{describeVerdict(detail.verdict)}</dd>
      </dl>
      {detail.truncated_from !== null && (
        <p className="warning-box">
          {t("detail.truncated", { wire: formatBytes(detail.truncated_from), kept: formatBytes(detail.size) })}
        </p>
      )}
      {flags.length > 0 && (
        <section className="warning-box" data-testid="frame-flags">
          <div className="warning-box-title">{t("detail.flags")}</div>
          <ul>
            {flags.map((f, i) => (
              <li key={i}>
                {describeFlag(f)}
                {f.kind === "schema_violation" && <ViolationList violations={f.violations} />}
              </li>
            ))}
          </ul>
        </section>
      )}
      {detail.rounds.length > 0 && <CallRounds rounds={detail.rounds} current={detail.seq} onSelect={onSelect} />}
      {detail.pretty !== null && (
        <section className="section">
          <h3>{t("detail.json")}</h3>
          <pre className="code-block">{detail.pretty}</pre>
        </section>
      )}
      <section className="section">
        <div className="section-header">
          <h3>{detail.text !== null ? t("detail.exactText") : t("detail.exactBase64")}</h3>
          <span>
            {/* A client request, live or recorded, can be edited and sent again (recordings/). */}
            {detail.direction === "out" && detail.verdict.kind === "request" && detail.text !== null && (
              <ResendButton text={detail.text} serverId={serverId} />
            )}
            <CopyButton text={exact} testId="copy-frame-bytes" />
          </span>
        </div>
        <pre className="code-block raw-bytes">{exact}</pre>
      </section>
    </>
  );
}

/** The rounds of the multi round-trip call the frame belongs to, each frame a link. */
function CallRounds({
  rounds,
  current,
  onSelect,
}: {
  rounds: RoundFrames[];
  current: number;
  onSelect: (seq: number) => void;
}) {
  const { t } = useTranslation(["traffic", "common"]);
  const link = (seq: number) =>
    seq === current ? (
      <span className="mono" aria-current="true">
        #{seq}
      </span>
    ) : (
      <button type="button" className="link-button mono" data-testid="round-link" onClick={() => onSelect(seq)}>
        #{seq}
      </button>
    );
  return (
    <section className="section" data-testid="call-rounds">
      <h3>{t("rounds.title", { count: rounds.length })}</h3>
      <p className="muted">{t("rounds.body")}</p>
      <ol className="call-rounds">
        {rounds.map((r) => (
          <li key={r.round}>
            {r.response_seq === null ? (
              <Trans
                t={t}
                i18nKey="rounds.pending"
                values={{ round: r.round }}
                components={{ request: link(r.request_seq), muted: <span className="muted" /> }}
              />
            ) : (
              <Trans
                t={t}
                i18nKey="rounds.answered"
                values={{ round: r.round }}
                components={{ request: link(r.request_seq), response: link(r.response_seq) }}
              />
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Each place the frame breaks its revision's schema: the JSON path, what is wrong, the rule. */
function ViolationList({ violations }: { violations: readonly Violation[] }) {
  const { t } = useTranslation("traffic");
  return (
    <ul className="violations">
      {violations.map((v, i) => (
        <li key={i} data-testid="schema-violation">
          <code className="mono" data-testid="schema-violation-path">
            {v.path === "" ? t("checks.wholeMessage") : v.path}
          </code>{" "}
          {v.message}
          {v.rule !== "" && (
            <span className="muted small" title={v.schema_path}>
              {" "}
              {t("checks.rule", { rule: v.rule })}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
