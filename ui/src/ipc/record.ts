// The record the app keeps per connection: windows over the traffic (the list never holds every
// row), frame details, stderr, HTTP exchanges, exports.
import { invoke } from "@tauri-apps/api/core";
import type { FrameDetail } from "../bindings/FrameDetail";
import type { HttpExchange } from "../bindings/HttpExchange";
import type { SearchHit } from "../bindings/SearchHit";
import type { StderrLine } from "../bindings/StderrLine";
import type { TrafficExport } from "../bindings/TrafficExport";
import type { TrafficFilter } from "../bindings/TrafficFilter";
import type { TrafficRow } from "../bindings/TrafficRow";
import type { TrafficSummary } from "../bindings/TrafficSummary";
import type { TrafficTail } from "../bindings/TrafficTail";

export const recordIpc = {
  trafficSummary: (serverId: string) => invoke<TrafficSummary>("traffic_summary", { serverId }),
  trafficCount: (serverId: string, filter: TrafficFilter) => invoke<number>("traffic_count", { serverId, filter }),
  /** The count under the filter and its newest `tail` rows or more (from a multiple of `page`), of one moment. */
  trafficTail: (serverId: string, filter: TrafficFilter, tail: number, page: number) =>
    invoke<TrafficTail>("traffic_tail", { serverId, filter, tail, page }),
  /** Rows `offset..offset + limit` under the filter; `count` (the list's last count) lets the end be read from the end. */
  trafficWindow: (serverId: string, filter: TrafficFilter, offset: number, limit: number, count: number | null = null) =>
    invoke<TrafficRow[]>("traffic_window", { serverId, filter, offset, limit, count }),
  /** Where the entry sits under the filter (0-based), or null when the filter hides it. */
  trafficPosition: (serverId: string, seq: number, filter: TrafficFilter) =>
    invoke<number | null>("traffic_position", { serverId, seq, filter }),
  /** Full-text search (every term as a substring, any ASCII case, "quoted phrases": docs/store.md): hits after `afterSeq`, in seq order. */
  trafficSearch: (serverId: string, query: string, afterSeq: number, limit: number) =>
    invoke<SearchHit[]>("traffic_search", { serverId, query, afterSeq, limit }),
  frameDetail: (serverId: string, seq: number) => invoke<FrameDetail>("frame_detail", { serverId, seq }),
  /** The frame as a `periscope raw` command line (secrets by variable name only). */
  frameRawCommand: (serverId: string, seq: number) => invoke<string>("frame_raw_command", { serverId, seq }),
  stderrLines: (serverId: string) => invoke<StderrLine[]>("stderr_lines", { serverId }),
  httpExchanges: (serverId: string) => invoke<HttpExchange[]>("http_exchanges", { serverId }),
  /** Saves the record as HAR, JSON Lines or Markdown (of the frames `filter` keeps) where the user picks; the path, or null if cancelled. */
  exportTraffic: (serverId: string, format: TrafficExport, filter: TrafficFilter) =>
    invoke<string | null>("export_traffic", { serverId, format, filter }),
};
