// The app's own settings (settings.json in the data folder), where its data and secrets live,
// and clearing the history and the saved sign-ins.
import { invoke } from "@tauri-apps/api/core";
import type { AppSettings } from "../bindings/AppSettings";
import type { DataPlaces } from "../bindings/DataPlaces";
import type { RememberedArgs } from "../bindings/RememberedArgs";

export const settingsIpc = {
  appSettingsGet: () => invoke<AppSettings>("app_settings_get"),
  systemLanguages: () => invoke<string[]>("system_languages"),
  appSettingsSave: (settings: AppSettings) => invoke<void>("app_settings_save", { settings }),
  dataPlaces: () => invoke<DataPlaces>("data_places"),
  openDataFolder: () => invoke<void>("open_data_folder"),
  clearAllHistory: () => invoke<number>("clear_all_history"),
  clearSignIns: () => invoke<number>("clear_sign_ins"),
  rememberedArgsAll: () => invoke<RememberedArgs[]>("remembered_args_all"),
  rememberedArgsPut: (entry: RememberedArgs) => invoke<void>("remembered_args_put", { entry }),
};
