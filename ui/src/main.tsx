import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { loadAppSettings } from "./actions/startup";
import "./i18n";
import { applyTheme } from "./settings/theme";
import "./styles/base.css";
import "./styles/layout.css";
import "./styles/components.css";
import "./styles/traffic.css";
import "./styles/timeline.css";
import "./styles/network.css";
import "./styles/form.css";
import "./styles/asks.css";
import "./styles/keyboard.css";
import "./styles/onboarding.css";
import "./styles/recordings.css";
// Last: the focus ring wins over the softer shadows above.
import "./styles/focus.css";

// The desktop's light or dark until the stored setting is read (actions.start).
applyTheme("system");

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
// The theme and language before the first paint; a backend that does not answer within a
// second does not hold the window (start() reads them again).
await Promise.race([loadAppSettings(), new Promise((done) => setTimeout(done, 1000))]);
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
