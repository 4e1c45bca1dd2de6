import { Command, Info, Keyboard, Settings } from "lucide-react";
import { openOverlay } from "./overlays";
import { hintFor, isMac } from "./shortcuts";

/** Small buttons at the foot of the sidebar: the palette, the shortcuts sheet, Settings, About. */
export function AppMenu() {
  const mac = isMac();
  const palette = `Command palette (${hintFor("palette", mac) ?? ""})`;
  const sheet = `Keyboard shortcuts (${hintFor("shortcuts", mac) ?? ""})`;
  return (
    <nav className="app-menu" aria-label="App">
      <button type="button" className="icon-button" data-testid="open-palette" aria-label={palette} title={palette} onClick={() => openOverlay("palette")}>
        <Command size={14} aria-hidden />
      </button>
      <button type="button" className="icon-button" data-testid="open-shortcuts" aria-label={sheet} title={sheet} onClick={() => openOverlay("shortcuts")}>
        <Keyboard size={14} aria-hidden />
      </button>
      <button type="button" className="icon-button" data-testid="settings-button" aria-label="Settings" title="Settings" onClick={() => openOverlay("settings")}>
        <Settings size={14} aria-hidden />
      </button>
      <button type="button" className="icon-button" data-testid="open-about" aria-label="About Periscope" title="About Periscope" onClick={() => openOverlay("about")}>
        <Info size={14} aria-hidden />
      </button>
    </nav>
  );
}
