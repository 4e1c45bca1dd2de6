// The IPC layer: every call into the Rust side of the app goes through this folder, one file
// per concern. Commands reject with a typed Problem, worded by errors.ts.
import { asksIpc } from "./asks";
import { catalogIpc } from "./catalog";
import { hostImportIpc } from "./hostImport";
import { connectionsIpc } from "./connections";
import { oauthIpc } from "./oauth";
import { recordIpc } from "./record";
import { requestsIpc } from "./requests";

export { aboutIpc } from "./about";
export { asCallError, errorMessage, hasTauri } from "./errors";
export { LOG_LEVELS, type JsonObject, type ListKind, type LogLevel, type PagedKind } from "./types";
export { serverIpc } from "./connections";
export { resourcesIpc, toolsIpc } from "./requests";
export { recordingsIpc, resendIpc } from "./recordings";
export { savedIpc } from "./saved";
export { settingsIpc } from "./settings";
export { tasksIpc } from "./tasks";
export { timelineIpc } from "./timeline";
export { checkIpc } from "./check";
export { loadIpc } from "./load";
export { modelsIpc } from "./models";
export { playgroundIpc } from "./playground";

/** The commands most of the app uses, as one object. */
export const ipc = {
  ...catalogIpc,
  ...hostImportIpc,
  ...connectionsIpc,
  ...requestsIpc,
  ...recordIpc,
  ...asksIpc,
  ...oauthIpc,
};
export { skillsIpc } from "./skills";
export { evalsIpc } from "./evals";
