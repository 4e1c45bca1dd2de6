import { X } from "lucide-react";
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
  const failed = exchange.status === null;
  return (
    <aside className="frame-detail" data-testid="exchange-detail" data-seq={exchange.seq} aria-label={`Exchange ${exchange.seq}`}>
      <header className="frame-detail-header">
        <span className="frame-detail-title">
          {exchange.method} #{exchange.seq}
        </span>
        <button type="button" className="icon-button" onClick={onClose} aria-label="Close" title="Close">
          <X size={14} aria-hidden />
        </button>
      </header>
      <div className="frame-detail-body scroll-area">
        <dl className="facts compact">
          <dt>URL</dt>
          <dd className="mono exchange-url" data-testid="exchange-url">
            {exchange.url} <CopyButton text={exchange.url} label="Copy URL" />
          </dd>
          <dt>Method</dt>
          <dd className="mono">{exchange.method}</dd>
          <dt>{failed ? "Error" : "Status"}</dt>
          <dd className={`http-status status-${statusClass(exchange.status)}`} data-testid="exchange-status">
            {failed ? `failed: ${exchange.error ?? "no response"}` : exchange.status}
          </dd>
          {!failed && exchange.error !== null && (
            <>
              <dt>Error</dt>
              <dd className="text-danger">{exchange.error}</dd>
            </>
          )}
          <dt>Time</dt>
          <dd className="mono">{formatTime(exchange.wall_us)}</dd>
          <dt>Duration</dt>
          <dd data-testid="exchange-duration">{formatLatency(exchange.duration_us)}</dd>
          {exchange.sent_frame !== null && (
            <>
              <dt>Frame</dt>
              <dd>
                <button
                  type="button"
                  className="link-button"
                  data-testid="exchange-frame"
                  data-frame-seq={exchange.sent_frame}
                  title="Show this frame in the Traffic tab"
                  onClick={() => exchange.sent_frame !== null && onShowFrame(exchange.sent_frame)}
                >
                  carried frame #{exchange.sent_frame}
                </button>
              </dd>
            </>
          )}
        </dl>
        <HeaderTable title="Request headers" headers={exchange.request_headers} testId="exchange-request-headers" />
        <HeaderTable
          title="Response headers"
          headers={exchange.response_headers}
          testId="exchange-response-headers"
          empty={failed ? "No response." : "None."}
        />
      </div>
    </aside>
  );
}

function HeaderTable({
  title,
  headers,
  testId,
  empty = "None.",
}: {
  title: string;
  headers: ReadonlyArray<[string, string]>;
  testId: string;
  empty?: string;
}) {
  return (
    <section className="section">
      <h3>{title}</h3>
      {headers.length === 0 ? (
        <p className="muted">{empty}</p>
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
