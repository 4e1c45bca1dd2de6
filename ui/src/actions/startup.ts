// The UI's start: subscribe to the events, then load what the app already holds (catalog,
// connections, waiting asks, settings, remembered arguments, open recordings). Each failure is
// said as an app error; none stops the rest.
import i18n from "../i18n";
import { errorMessage, hasTauri, ipc, settingsIpc } from "../ipc";
import { catalogToast, showToast } from "../feedback/toasts";
import { setAppSettings, setSystemLanguages } from "../settings/appSettings";
import { addAppError, connections, setCatalogError } from "../state/connections";
import { loadRemembered } from "../tools/remembered";
import { loadAsks } from "./asks";
import { loadCatalog } from "./catalog";
import { refreshConnections } from "./connections";
import { handleEvents } from "./events";
import { loadRecordings } from "./recordings";

let started = false;

/** Subscribes to events, loads the catalog and picks up connections made before the UI. */
export async function start(): Promise<void> {
  if (started) return;
  started = true;
  if (!hasTauri()) {
    addAppError(i18n.t("state:noBackend"));
    setCatalogError(i18n.t("state:noCatalog"));
    return;
  }
  try {
    await ipc.subscribeEvents(handleEvents);
  } catch (error) {
    addAppError(i18n.t("state:subscribeFailed", { error: errorMessage(error) }));
  }
  await Promise.all([loadCatalog(), refreshConnections(true), loadAsks(), loadAppSettings(), loadToolArgs()]);
  // After the catalog: a recording the app was started on (`periscope open FILE`) is shown.
  await loadRecordings();
  watchCatalog();
}

/** The last arguments of each tool, for the forms; none if they cannot be read. */
async function loadToolArgs(): Promise<void> {
  try {
    loadRemembered(await settingsIpc.rememberedArgsAll(), settingsIpc.rememberedArgsPut);
  } catch (error) {
    addAppError(i18n.t("state:rememberedFailed", { error: errorMessage(error) }));
  }
}

/**
 * The app's settings (theme, language, default era, timeout); the defaults stay if they cannot
 * be read. main.tsx awaits this before the first paint, so a Chinese desktop never flashes English.
 */
export async function loadAppSettings(): Promise<void> {
  if (!hasTauri()) return;
  try {
    setSystemLanguages(await settingsIpc.systemLanguages());
    setAppSettings(await settingsIpc.appSettingsGet());
  } catch (error) {
    addAppError(i18n.t("state:settingsFailed", { error: errorMessage(error) }));
  }
}

/** A toast when servers join the loaded catalog (an import, the server form, a duplicate). */
function watchCatalog(): void {
  let known = connections.getState().catalog;
  connections.subscribe(() => {
    const { catalog, catalogStatus } = connections.getState();
    if (catalog === known || catalogStatus !== "loaded") return;
    const toast = catalogToast(known, catalog);
    known = catalog;
    if (toast) showToast(toast);
  });
}
