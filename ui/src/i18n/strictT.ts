// For tests: a `t` in one language with no fallback, that keeps every key it asked for and missed.
import { createInstance, type Namespace, type TFunction } from "i18next";
import { resources } from "./resources";

export function strictT<N extends Namespace>(lng: "en" | "zh-Hans", ns: N): { t: TFunction<N>; missing: string[] } {
  const missing: string[] = [];
  const i18n = createInstance();
  void i18n.init({
    resources,
    lng,
    fallbackLng: false,
    ns: Object.keys(resources.en),
    interpolation: { escapeValue: false },
    initAsync: false,
    parseMissingKeyHandler: (key: string) => {
      missing.push(key);
      return key;
    },
  });
  return { t: i18n.getFixedT(lng, ns) as TFunction<N>, missing };
}
