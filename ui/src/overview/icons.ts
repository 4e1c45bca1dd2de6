// serverInfo.icons: which ones the Overview shows.
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { getString, isObject } from "../json";

export interface ServerIcon {
  src: string;
  mimeType?: string;
  sizes?: string;
}

/**
 * The server's icons the app may show: `data:image/…` URLs only. `https:` icons are named but
 * not loaded (the app's CSP allows no remote content: fetching one would tell a third party
 * when you inspect the server); anything else (`http:`, `javascript:`, `file:`) is dropped.
 */
export function serverIcons(serverInfo: JsonValue | undefined): { shown: ServerIcon[]; remote: string[] } {
  const icons = isObject(serverInfo) && Array.isArray(serverInfo.icons) ? serverInfo.icons : [];
  const shown: ServerIcon[] = [];
  const remote: string[] = [];
  for (const icon of icons) {
    if (!isObject(icon)) continue;
    const src = getString(icon, "src")?.trim();
    if (!src) continue;
    const lower = src.toLowerCase();
    if (lower.startsWith("data:image/")) {
      shown.push({ src, mimeType: getString(icon, "mimeType"), sizes: getString(icon, "sizes") });
    } else if (lower.startsWith("https:")) {
      remote.push(src);
    }
  }
  return { shown, remote };
}
