import { Crosshair, Maximize2, Radio, ZoomIn, ZoomOut } from "lucide-react";
import { useCallback, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { showFrame } from "../actions/view";
import { ConnectButton } from "../common/ConnectButton";
import { EmptyState } from "../common/EmptyState";
import { formatNumber } from "../format";
import { select, useConnections, type ServerState } from "../state/connections";
import { LatencyPlot } from "./LatencyPlot";
import { type ChartLane, TimelineChart } from "./TimelineChart";
import { useTimelineLanes } from "./useTimeline";
import { type Domain, ZOOM_STEP, extentOf, followTo, zoomAt } from "./view";

/** A key for one method of one server in the latency picker. */
const methodKey = (serverId: string, method: string, direction: string) => `${serverId}|${direction}|${method}`;

/**
 * The session as time: a zoomable timeline of calls and notifications (this server, or every
 * connected server in its own lane) and the latency of each method.
 */
export function TimelineTab({ server }: { server: ServerState }) {
  const { t } = useTranslation("timeline");
  const [all, setAll] = useState(false);
  const connected = useConnections((s) =>
    s.catalog.filter((e) => s.servers[e.id]?.status.state === "ready").map((e) => e.id).join("\n"),
  );
  const names = useConnections((s) => s.catalog);
  const ids = useMemo(() => {
    if (!all) return [server.id];
    const list = connected === "" ? [] : connected.split("\n");
    return list.includes(server.id) ? list : [server.id, ...list];
  }, [all, connected, server.id]);
  const live = server.status.state === "ready" || server.status.state === "connecting" || (all && connected !== "");
  const { lanes, loaded } = useTimelineLanes(ids, live);

  // The view the user zoomed or panned to; none: fit the whole session.
  const [view, setView] = useState<Domain | null>(null);
  const [follow, setFollow] = useState(true);
  const [picked, setPicked] = useState<string | null>(null);

  const chartLanes: ChartLane[] = useMemo(
    () =>
      lanes.flatMap((l) =>
        l.timeline ? [{ serverId: l.serverId, name: names.find((e) => e.id === l.serverId)?.name ?? l.serverId, timeline: l.timeline }] : [],
      ),
    [lanes, names],
  );
  const extent = useMemo(() => extentOf(chartLanes.map((l) => l.timeline)), [chartLanes]);
  const nowUs = chartLanes.reduce((n, l) => Math.max(n, l.timeline.now_us), 0);

  // Fitted until the user zooms or pans; while following, the view keeps its width and shows
  // the newest traffic.
  const domain: Domain | null = !extent ? view : view === null ? extent : follow ? followTo(view, extent.to) : view;

  const userDomain = useCallback((d: Domain) => {
    setFollow(false);
    setView(d);
  }, []);
  const zoom = (factor: number) => {
    if (!domain) return;
    userDomain(zoomAt(domain, factor, (domain.from + domain.to) / 2));
  };
  const fit = () => setView(null);
  const open = useCallback((serverId: string, seq: number) => {
    select(serverId);
    showFrame(serverId, seq);
  }, []);

  const omitted = lanes.reduce((n, l) => n + Number(l.timeline?.omitted_spans ?? 0), 0);
  // A server never connected has no record yet: that is the empty state, not an error.
  const states = useConnections((s) => s.servers);
  const errors = lanes.filter((l) => l.error !== null && l.timeline === null && states[l.serverId]?.status.state !== "disconnected");
  const methods = lanes.flatMap((l) =>
    (l.latency?.methods ?? []).map((m) => ({ key: methodKey(l.serverId, m.method, m.direction), serverId: l.serverId, m })),
  );
  // The user's pick, else this server's busiest method.
  const chosen = methods.find((x) => x.key === picked) ?? methods.find((x) => x.serverId === server.id) ?? methods[0] ?? null;
  const empty = loaded && chartLanes.every((l) => l.timeline.spans.length === 0 && l.timeline.ticks.length === 0);

  return (
    <div className="timeline" data-testid="timeline-tab">
      <div className="timeline-toolbar" role="toolbar" aria-label={t("toolbar.label")}>
        <button type="button" className="button button-small" onClick={() => zoom(1 / ZOOM_STEP)} disabled={!domain} data-testid="timeline-zoom-in" title={t("toolbar.zoomIn")}>
          <ZoomIn size={14} aria-hidden />
          {t("toolbar.zoomIn")}
        </button>
        <button type="button" className="button button-small" onClick={() => zoom(ZOOM_STEP)} disabled={!domain} data-testid="timeline-zoom-out" title={t("toolbar.zoomOut")}>
          <ZoomOut size={14} aria-hidden />
          {t("toolbar.zoomOut")}
        </button>
        <button type="button" className="button button-small" onClick={fit} disabled={!extent} data-testid="timeline-fit" title={t("toolbar.fitTitle")}>
          <Maximize2 size={14} aria-hidden />
          {t("toolbar.fit")}
        </button>
        <label className="timeline-toggle" title={t("toolbar.followTitle")}>
          <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} data-testid="timeline-follow" />
          <Radio size={14} aria-hidden />
          {t("toolbar.follow")}
        </label>
        <label className="timeline-toggle" title={t("toolbar.allTitle")}>
          <input
            type="checkbox"
            checked={all}
            onChange={(e) => {
              setAll(e.target.checked);
              setView(null);
              setFollow(true);
            }}
            data-testid="timeline-all-servers"
          />
          <Crosshair size={14} aria-hidden />
          {t("toolbar.all")}
        </label>
        <span className="timeline-hint">{t("toolbar.hint")}</span>
      </div>
      <Legend />
      {omitted > 0 && (
        <div className="timeline-notice" data-testid="timeline-omitted">
          {t("omitted", { count: omitted, n: formatNumber(omitted) })}
        </div>
      )}
      {errors.map((l) => (
        <div key={l.serverId} className="timeline-notice error" role="alert">
          {t("error", { server: names.find((e) => e.id === l.serverId)?.name ?? l.serverId, error: l.error })}
        </div>
      ))}
      {empty ? (
        <EmptyState title={t("empty.title")} action={live ? undefined : <ConnectButton server={server} />} testId="timeline-empty">
          {live ? t("empty.body") : t("empty.bodyConnect")}
        </EmptyState>
      ) : (
        domain && (
          <TimelineChart
            lanes={chartLanes}
            domain={domain}
            origin={extent?.from ?? domain.from}
            nowUs={nowUs}
            showNames={all}
            onDomain={userDomain}
            onOpen={open}
          />
        )
      )}
      <section className="timeline-latency" aria-label={t("latency.title")}>
        <header className="timeline-latency-header">
          <h3>{t("latency.title")}</h3>
          {methods.length > 0 && (
            <select
              className="select"
              value={chosen?.key ?? ""}
              onChange={(e) => setPicked(e.target.value)}
              data-testid="latency-method"
              aria-label={t("latency.method")}
            >
              {methods.map(({ key, serverId, m }) => (
                <option key={key} value={key}>
                  {t(all ? "latency.optionServer" : "latency.option", {
                    server: names.find((e) => e.id === serverId)?.name ?? serverId,
                    method: m.method,
                    direction: t(`direction.${m.direction}`),
                    count: Number(m.count),
                  })}
                </option>
              ))}
            </select>
          )}
        </header>
        {chosen ? <LatencyPlot method={chosen.m} /> : <p className="timeline-hint">{t("latency.none")}</p>}
      </section>
    </div>
  );
}

/** What the colours and marks of the chart mean. */
function Legend() {
  const { t } = useTranslation("timeline");
  const items = [
    { className: "swatch outcome-ok", label: t("outcome.ok") },
    { className: "swatch outcome-error", label: t("outcome.error") },
    { className: "swatch outcome-pending", label: t("outcome.pending") },
    { className: "swatch outcome-cancelled", label: t("outcome.cancelled") },
    { className: "swatch direction-in", label: t("legend.serverRequest") },
    { className: "swatch progress", label: t("legend.progress") },
    { className: "swatch tick", label: t("legend.tick") },
  ];
  return (
    <ul className="timeline-legend" aria-label={t("legend.label")}>
      {items.map((item) => (
        <li key={item.className}>
          <span className={item.className} aria-hidden />
          {item.label}
        </li>
      ))}
    </ul>
  );
}
