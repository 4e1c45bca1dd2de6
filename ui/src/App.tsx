import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Toaster } from "sonner";
import { AboutDialog } from "./about/AboutDialog";
import { start } from "./actions/startup";
import { AskDialog } from "./asks/AskDialog";
import { ConnectedAuditDialog } from "./check/ConnectedAuditDialog";
import { AppErrors } from "./common/AppErrors";
import { EmptyState } from "./common/EmptyState";
import { AppMenu } from "./keyboard/AppMenu";
import { CommandPalette } from "./keyboard/CommandPalette";
import { ShortcutsSheet } from "./keyboard/ShortcutsSheet";
import { closeOverlay, useOverlay } from "./keyboard/overlays";
import { useShortcuts } from "./keyboard/useShortcuts";
import { Welcome } from "./onboarding/Welcome";
import { ServerView } from "./server/ServerView";
import { SettingsDialog } from "./settings/SettingsDialog";
import { Sidebar } from "./sidebar/Sidebar";
import { useConnections } from "./state/connections";
import { RecordingView } from "./recordings/RecordingView";
import { useRecordings } from "./state/recordings";

/** The dialogs opened as overlays. Their own component: opening one re-renders this, not the
 * whole app (a server's view with a 20 000-tool report behind the dialog stays as it is). */
function OverlayDialogs() {
  const overlay = useOverlay();
  return (
    <>
      {overlay === "settings" && <SettingsDialog onClose={closeOverlay} />}
      {overlay === "audit" && <ConnectedAuditDialog onClose={closeOverlay} />}
    </>
  );
}

export function App() {
  const { t } = useTranslation(["app", "common"]);
  useEffect(() => {
    void start();
  }, []);
  useShortcuts();
  const selected = useConnections((s) => s.catalog.find((e) => e.id === s.selectedId) ?? null);
  const loading = useConnections((s) => s.catalogStatus === "loading");
  const selectedId = useConnections((s) => s.selectedId);
  const recording = useRecordings((s) => s.list.find((r) => r.id === selectedId) ?? null);
  return (
    <>
      <div className="app">
        <Sidebar />
        <main className="main">
          <AppErrors />
          {recording ? (
            <RecordingView key={recording.id} info={recording} />
          ) : selected ? (
            <ServerView key={selected.id} entry={selected} />
          ) : loading ? (
            <EmptyState>{t("common:loading")}</EmptyState>
          ) : (
            // No server selected (an empty catalog, or "Welcome" in the palette).
            <Welcome />
          )}
        </main>
        <AppMenu />
        <AskDialog />
        <CommandPalette />
        <ShortcutsSheet />
        <AboutDialog />
        <OverlayDialogs />
      </div>
      {/* Outside the grid: sonner's container is a block in the flow, and as a grid item it
          took a row of its own, leaving the sidebar and the main view short of the window. */}
      <Toaster position="bottom-right" closeButton richColors containerAriaLabel={t("notifications")} />
    </>
  );
}
