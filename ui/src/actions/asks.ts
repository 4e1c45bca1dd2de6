// What the user answers to servers: the requests that wait for them, the URL consent of a
// URL-elicitation-required error, and the host settings (roots, reply rules) that answer
// without asking.
import type { Answer } from "../bindings/Answer";
import type { HostSettings } from "../bindings/HostSettings";
import type { UrlDecision } from "../bindings/UrlDecision";
import i18n from "../i18n";
import { errorMessage, ipc } from "../ipc";
import { addAsks, removeAsk, setHostSettings } from "../state/asks";
import { addAppError } from "../state/connections";

/** Server requests that were waiting before the UI subscribed (e.g. after a reload). */
export async function loadAsks(): Promise<void> {
  try {
    addAsks(await ipc.pendingAsks());
  } catch (error) {
    addAppError(i18n.t("state:asksFailed", { error: errorMessage(error) }));
  }
}

/**
 * Sends the user's answer to a server request. Returns an error message when it could not be
 * delivered (the request is gone: answered elsewhere, or its server went away).
 */
export async function answerAsk(askId: number, answer: Answer): Promise<string | null> {
  try {
    await ipc.answerAsk(askId, answer);
    removeAsk(askId);
    return null;
  } catch (error) {
    removeAsk(askId);
    return errorMessage(error);
  }
}

export async function loadHostSettings(id: string): Promise<void> {
  try {
    setHostSettings(id, await ipc.hostSettings(id), null);
  } catch (error) {
    setHostSettings(id, null, i18n.t("state:hostSettingsFailed", { error: errorMessage(error) }));
  }
}

/** Saves roots and reply rule; a connected server hears that its roots changed. */
export async function saveHostSettings(id: string, settings: HostSettings): Promise<void> {
  try {
    await ipc.saveHostSettings(id, settings);
    setHostSettings(id, settings, null);
  } catch (error) {
    setHostSettings(id, null, errorMessage(error));
  }
}

/**
 * The user's decision about a URL a URL-elicitation-required error named, made in the consent
 * dialog: recorded, and the URL opened when the decision is "open". Returns an error message or null.
 */
export async function consentUrl(
  id: string,
  url: string,
  elicitationId: string,
  decision: UrlDecision,
): Promise<string | null> {
  try {
    await ipc.consentUrl(id, url, elicitationId, decision);
    return null;
  } catch (error) {
    return errorMessage(error);
  }
}
