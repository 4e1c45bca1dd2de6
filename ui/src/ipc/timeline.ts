// The Timeline tab's reads: a server's spans and ticks in a window, latency per method; and the
// same for several servers side by side.
import { invoke } from "@tauri-apps/api/core";
import type { LatencyReport } from "../bindings/LatencyReport";
import type { ServerLatency } from "../bindings/ServerLatency";
import type { ServerTimeline } from "../bindings/ServerTimeline";
import type { Timeline } from "../bindings/Timeline";
import type { TimelineWindow } from "../bindings/TimelineWindow";

export const timelineIpc = {
  timeline: (serverId: string, window: TimelineWindow) => invoke<Timeline>("timeline", { serverId, window }),
  latency: (serverId: string) => invoke<LatencyReport>("latency", { serverId }),
  timelineAll: (serverIds: string[], window: TimelineWindow) =>
    invoke<ServerTimeline[]>("timeline_all", { serverIds, window }),
  latencyAll: (serverIds: string[]) => invoke<ServerLatency[]>("latency_all", { serverIds }),
};
