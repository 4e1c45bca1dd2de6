import { ArrowDownToLine, Search } from "lucide-react";
import type { DirectionFilter } from "./filter";
import { setTrafficView, type TrafficView } from "../state/traffic";

interface Props {
  serverId: string;
  view: TrafficView;
  shown: number;
  total: number;
}

/** Text and direction filters, the follow toggle, and how many frames are shown. */
export function TrafficFilterBar({ serverId, view, shown, total }: Props) {
  return (
    <div className="filter-bar">
      <label className="search-field">
        <Search size={14} aria-hidden />
        <input
          type="search"
          data-testid="traffic-filter"
          aria-label="Filter frames"
          placeholder="Filter by method, id, text or problem"
          value={view.text}
          onChange={(e) => setTrafficView(serverId, { text: e.target.value })}
          spellCheck={false}
        />
      </label>
      <select
        data-testid="traffic-direction"
        aria-label="Direction"
        value={view.direction}
        onChange={(e) => setTrafficView(serverId, { direction: e.target.value as DirectionFilter })}
      >
        <option value="all">Both directions</option>
        <option value="out">Out (to server)</option>
        <option value="in">In (from server)</option>
      </select>
      <label className="checkbox-label" title="Keep the newest frame in view">
        <input
          type="checkbox"
          data-testid="traffic-follow"
          checked={view.follow}
          onChange={(e) => setTrafficView(serverId, { follow: e.target.checked })}
        />
        <ArrowDownToLine size={14} aria-hidden />
        Follow
      </label>
      <span className="spacer" />
      <span className="count-text" data-testid="traffic-count">
        {shown.toLocaleString("en-US")} of {total.toLocaleString("en-US")} frames
      </span>
    </div>
  );
}
