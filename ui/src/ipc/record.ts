// The record the app keeps per connection: traffic rows, frame details, stderr, HTTP exchanges.
import { invoke } from "@tauri-apps/api/core";
import type { FrameDetail } from "../bindings/FrameDetail";
import type { FrameRow } from "../bindings/FrameRow";
import type { HttpExchange } from "../bindings/HttpExchange";
import type { StderrLine } from "../bindings/StderrLine";
import type { TrafficExport } from "../bindings/TrafficExport";

export const recordIpc = {
  trafficRows: (serverId: string, from: number, count: number) =>
    invoke<FrameRow[]>("traffic_rows", { serverId, from, count }),
  frameDetail: (serverId: string, seq: number) => invoke<FrameDetail>("frame_detail", { serverId, seq }),
  stderrLines: (serverId: string) => invoke<StderrLine[]>("stderr_lines", { serverId }),
  httpExchanges: (serverId: string) => invoke<HttpExchange[]>("http_exchanges", { serverId }),
  /** Saves the record as HAR, JSON Lines or Markdown (of `seqs`) where the user picks; the path, or null if cancelled. */
  exportTraffic: (serverId: string, format: TrafficExport, seqs: number[]) =>
    invoke<string | null>("export_traffic", { serverId, format, seqs }),
};
