import { useEffect } from "react";
import { Toaster } from "sonner";
import { AboutDialog } from "./about/AboutDialog";
import { start } from "./actions";
import { AskDialog } from "./asks/AskDialog";
import { AppErrors } from "./common/AppErrors";
import { EmptyState } from "./common/EmptyState";
import { AppMenu } from "./keyboard/AppMenu";
import { CommandPalette } from "./keyboard/CommandPalette";
import { ShortcutsSheet } from "./keyboard/ShortcutsSheet";
import { closeOverlay, useOverlay } from "./keyboard/overlays";
import { useShortcuts } from "./keyboard/useShortcuts";
import { ServerView } from "./server/ServerView";
import { SettingsDialog } from "./settings/SettingsDialog";
import { Sidebar } from "./sidebar/Sidebar";
import { useConnections } from "./state/connections";

export function App() {
  useEffect(() => {
    void start();
  }, []);
  useShortcuts();
  const overlay = useOverlay();
  const selected = useConnections((s) => s.catalog.find((e) => e.id === s.selectedId) ?? null);
  return (
    <div className="app">
      <Sidebar />
      <main className="main">
        <AppErrors />
        {selected ? (
          <ServerView key={selected.id} entry={selected} />
        ) : (
          <EmptyState>Select a server on the left, or add one.</EmptyState>
        )}
      </main>
      <AppMenu />
      <AskDialog />
      <CommandPalette />
      <ShortcutsSheet />
      <AboutDialog />
      {overlay === "settings" && <SettingsDialog onClose={closeOverlay} />}
      <Toaster position="bottom-right" closeButton richColors containerAriaLabel="Notifications" />
    </div>
  );
}
