// Connections and the live event channel.
import { Channel, invoke } from "@tauri-apps/api/core";
import type { AppEvent } from "../bindings/AppEvent";
import type { ConnectionInfo } from "../bindings/ConnectionInfo";
import type { ServerIdentity } from "../bindings/ServerIdentity";
import type { LogLevel } from "./types";

export const connectionsIpc = {
  /** Subscribes once; `onEvents` receives every batch the app pushes. */
  subscribeEvents: (onEvents: (events: AppEvent[]) => void): Promise<void> => {
    const channel = new Channel<AppEvent[]>();
    channel.onmessage = onEvents;
    return invoke<void>("subscribe_events", { onEvents: channel });
  },
  connections: () => invoke<ConnectionInfo[]>("connections"),
  connect: (serverId: string) => invoke<ServerIdentity>("connect", { serverId }),
  disconnect: (serverId: string) => invoke<void>("disconnect", { serverId }),
  /** Forgets the era the server was found to speak: the next connection probes again. */
  forgetEra: (serverId: string) => invoke<void>("forget_era", { serverId }),
  /** Reconnects in the legacy era (remembered for the server until Probe again). */
  reconnectLegacy: (serverId: string) => invoke<ServerIdentity>("reconnect_legacy", { serverId }),
};

/** The Overview's server utilities. */
export const serverIpc = {
  setLogLevel: (serverId: string, level: LogLevel) => invoke<void>("set_log_level", { serverId, level }),
  /** The round trip of a ping, in µs. */
  ping: (serverId: string) => invoke<number>("ping_server", { serverId }),
  /** An icon a server names by https: URL, fetched by the app (no cookies), as a data: URL. */
  fetchIcon: (url: string) => invoke<string>("fetch_icon", { url }),
};
