// Sign-in state and the client secret of a server reached by URL.
import { invoke } from "@tauri-apps/api/core";
import type { AuthReport } from "../bindings/AuthReport";

export const oauthIpc = {
  oauthReport: (serverId: string) => invoke<AuthReport | null>("oauth_report", { serverId }),
  signOut: (serverId: string) => invoke<void>("sign_out", { serverId }),
  setClientSecret: (serverId: string, secret: string | null) =>
    invoke<void>("set_client_secret", { serverId, secret }),
  hasClientSecret: (serverId: string) => invoke<boolean>("has_client_secret", { serverId }),
};
