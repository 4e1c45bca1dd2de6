// Which talk the Traffic list shows: everything, Periscope with the server, or Periscope with
// the server's MCP App views. The filtering is the engine's (`TrafficFilter.channel`).
import { useTranslation } from "react-i18next";
import type { ChannelFilter } from "../state/trafficFilter";

const CHANNELS: readonly ChannelFilter[] = ["all", "server", "app"];

export function TrafficChannelChips({ value, onChange }: { value: ChannelFilter; onChange: (c: ChannelFilter) => void }) {
  const { t } = useTranslation("mcpApps");
  return (
    <div className="segmented" role="group" aria-label={t("traffic.channel")}>
      {CHANNELS.map((channel) => (
        <button
          key={channel}
          type="button"
          className={value === channel ? "active" : undefined}
          aria-pressed={value === channel}
          data-testid={`traffic-channel-${channel}`}
          onClick={() => onChange(channel)}
        >
          {t(`traffic.channels.${channel}`)}
        </button>
      ))}
    </div>
  );
}
