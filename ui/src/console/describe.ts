// What a console entry says, in the language of the moment: made when it is shown, so a
// change of language applies to entries already in the console.
import type { ServerNotification } from "../bindings/ServerNotification";
import i18n from "../i18n";
import type { ConsoleEntry } from "../state/consoleLog";

/** What an event entry says. */
export function eventText(entry: Extract<ConsoleEntry, { kind: "event" }>): string {
  return entry.notification === null ? i18n.t("console:newConnection") : describeNotification(entry.notification);
}

/** What a held-back entry says. */
export function heldText(entry: Extract<ConsoleEntry, { kind: "held" }>): string {
  return i18n.t("console:held", { count: entry.count, perSecond: entry.perSecond });
}

/** One line saying what a (non-log) notification was. */
export function describeNotification(n: ServerNotification): string {
  switch (n.kind) {
    case "log":
      return n.logger
        ? i18n.t("console:notification.logFrom", { level: n.level, logger: n.logger, data: JSON.stringify(n.data) })
        : i18n.t("console:notification.log", { level: n.level, data: JSON.stringify(n.data) });
    case "tools_list_changed":
      return i18n.t("console:notification.toolsChanged");
    case "resources_list_changed":
      return i18n.t("console:notification.resourcesChanged");
    case "prompts_list_changed":
      return i18n.t("console:notification.promptsChanged");
    case "resource_updated":
      return i18n.t("console:notification.resourceUpdated", { uri: n.uri });
    case "progress": {
      const progress = n.total === null ? String(n.progress) : `${n.progress}/${n.total}`;
      const token = JSON.stringify(n.token);
      return n.message
        ? i18n.t("console:notification.progressMessage", { progress, message: n.message, token })
        : i18n.t("console:notification.progress", { progress, token });
    }
    case "cancelled": {
      const request = n.request_id === null ? i18n.t("console:notification.noId") : JSON.stringify(n.request_id);
      return n.reason
        ? i18n.t("console:notification.cancelledBecause", { request, reason: n.reason })
        : i18n.t("console:notification.cancelled", { request });
    }
    case "elicitation_complete":
      return i18n.t("console:notification.elicitationComplete", { id: n.elicitation_id });
    case "other":
      return `${n.method}${n.params === null ? "" : ` ${JSON.stringify(n.params)}`}`;
  }
}
