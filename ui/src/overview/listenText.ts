// The listen stream's state (the engine's `ListenState`, sent as is) in the UI's language, for
// the Overview line; what the server or the transport said of a break is quoted as it came.
import type { TFunction } from "i18next";
import type { ListenFilter } from "../bindings/ListenFilter";
import type { ListenState } from "../bindings/ListenState";
import i18n from "../i18n";

type T = TFunction<"overview">;

function filterText(filter: ListenFilter, t: T): string {
  const lists = [
    filter.tools_list_changed && t("listen.tools"),
    filter.prompts_list_changed && t("listen.prompts"),
    filter.resources_list_changed && t("listen.resources"),
  ].filter((name): name is string => typeof name === "string");
  const parts: string[] = [];
  if (lists.length > 0) parts.push(t("listen.listChanges", { lists: lists.join(t("listen.listSeparator")) }));
  const count = filter.resource_subscriptions.length;
  if (count > 0) parts.push(t("listen.subscriptions", { count }));
  return parts.length === 0 ? t("listen.nothing") : parts.join(t("listen.separator"));
}

function sameFilter(a: ListenFilter, b: ListenFilter): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The state in words: "listening for tools, prompts, resources list changes; 1 resource". */
export function listenText(state: ListenState, t: T = i18n.getFixedT(null, "overview")): string {
  switch (state.state) {
    case "off":
      return t("listen.off");
    case "opening": {
      const filter = filterText(state.requested, t);
      return state.attempt > 1 ? t("listen.openingAgain", { filter, attempt: state.attempt }) : t("listen.opening", { filter });
    }
    case "open": {
      const filter = filterText(state.acknowledged, t);
      return sameFilter(state.acknowledged, state.requested)
        ? t("listen.open", { filter })
        : t("listen.openPartly", { filter, requested: filterText(state.requested, t) });
    }
    case "reopening":
      return t("listen.reopening", { reason: state.reason, seconds: (state.retry_in_ms / 1000).toFixed(1) });
    case "gave_up":
      return t("listen.gaveUp", { attempts: state.attempts, reason: state.reason });
  }
}
