// How an HTTP exchange reads in the Network tab.
import type { HttpExchange } from "../bindings/HttpExchange";

export type StatusClass = "informational" | "success" | "redirect" | "client-error" | "server-error" | "failed";

/** The colour class of a status: by its hundreds, or `failed` when no response came. */
export function statusClass(status: number | null): StatusClass {
  if (status === null) return "failed";
  if (status >= 500) return "server-error";
  if (status >= 400) return "client-error";
  if (status >= 300) return "redirect";
  if (status >= 200) return "success";
  return "informational";
}

/** `200`, or `failed` when no response arrived (for `data-status`: not translated). */
export function statusLabel(exchange: HttpExchange): string {
  return exchange.status === null ? "failed" : String(exchange.status);
}

/** The path (and query) of a URL, for the list; the whole text when it does not parse. */
export function urlPath(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}
