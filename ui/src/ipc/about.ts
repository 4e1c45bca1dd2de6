// The About dialog: versions and revisions from the engine, and its fixed links.
import { invoke } from "@tauri-apps/api/core";
import type { AboutInfo } from "../bindings/AboutInfo";
import type { AboutLink } from "../bindings/AboutLink";

export const aboutIpc = {
  about: () => invoke<AboutInfo>("about"),
  /** Opens the link in the browser (the app's one URL path); only after the user's click. */
  openAboutLink: (link: AboutLink) => invoke<void>("open_about_link", { link }),
};
