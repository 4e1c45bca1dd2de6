import { X } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { HttpExchange } from "../bindings/HttpExchange";
import { CopyButton } from "../common/CopyButton";
import { formatLatency, formatTime } from "../format";
import { statusClass } from "./describe";

interface Props {
  exchange: HttpExchange;
  onClose: () => void;
  /** Shows the frame the request carried in the Traffic tab. */
  onShowFrame: (seq: number) => void;
}

/** Everything recorded about one HTTP exchange. */
export function ExchangeDetail({ exchange, onClose, onShowFrame }: Props) {
  const { t } = useTranslation(["network", "common"]);
  const failed = exchange.status === null;
  return (
    <aside
      className="frame-detail"
      data-testid="exchange-detail"
      data-seq={exchange.seq}
      aria-label={t("detail.label", { seq: exchange.seq })}
    >
      <header className="frame-detail-header">
        <span className="frame-detail-title">
          {exchange.method} #{exchange.seq}
        </span>
        <button type="button" className="icon-button" onClick={onClose} aria-label={t("common:close")} title={t("common:close")}>
          <X size={14} aria-hidden />
        </button>
      </header>
      <div className="frame-detail-body scroll-area">
        <dl className="facts compact">
          <dt>{t("detail.url")}</dt>
          <dd className="mono exchange-url" data-testid="exchange-url">
            {exchange.url} <CopyButton text={exchange.url} label={t("detail.copyUrl")} />
          </dd>
          <dt>{t("column.method")}</dt>
          <dd className="mono">{exchange.method}</dd>
          <dt>{failed ? t("detail.error") : t("column.status")}</dt>
          <dd className={`http-status status-${statusClass(exchange.status)}`} data-testid="exchange-status">
            {failed ? t("failedWith", { error: exchange.error ?? t("detail.noResponseWords") }) : exchange.status}
          </dd>
          {!failed && exchange.error !== null && (
            <>
              <dt>{t("detail.error")}</dt>
              <dd className="text-danger">{exchange.error}</dd>
            </>
          )}
          <dt>{t("column.time")}</dt>
          <dd className="mono">{formatTime(exchange.wall_us)}</dd>
          <dt>{t("column.duration")}</dt>
          <dd data-testid="exchange-duration">{formatLatency(exchange.duration_us)}</dd>
          {exchange.sent_frame !== null && (
            <>
              <dt>{t("detail.frame")}</dt>
              <dd>
                <button
                  type="button"
                  className="link-button"
                  data-testid="exchange-frame"
                  data-frame-seq={exchange.sent_frame}
                  title={t("detail.showFrame")}
                  onClick={() => exchange.sent_frame !== null && onShowFrame(exchange.sent_frame)}
                >
                  {t("detail.carriedFrame", { seq: exchange.sent_frame })}
                </button>
              </dd>
            </>
          )}
        </dl>
        <HeaderTable title={t("detail.requestHeaders")} headers={exchange.request_headers} testId="exchange-request-headers" />
        <HeaderTable
          title={t("detail.responseHeaders")}
          headers={exchange.response_headers}
          testId="exchange-response-headers"
          empty={failed ? t("detail.noResponse") : undefined}
        />
      </div>
    </aside>
  );
}

function HeaderTable({
  title,
  headers,
  testId,
  empty,
}: {
  title: string;
  headers: ReadonlyArray<[string, string]>;
  testId: string;
  /** What an empty table says; "None." unless given. */
  empty?: string;
}) {
  const { t } = useTranslation(["network", "common"]);
  return (
    <section className="section">
      <h3>{title}</h3>
      {headers.length === 0 ? (
        <p className="muted">{empty ?? t("detail.noHeaders")}</p>
      ) : (
        <table className="header-table" data-testid={testId}>
          <tbody>
            {headers.map(([name, value], i) => (
              <tr key={`${i}-${name}`}>
                <th scope="row">{name}</th>
                <td className={value === "[redacted]" ? "muted" : undefined}>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
