// Which viewer shows a resource's contents, by what the server said its MIME type is.
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import type { ResourceBody } from "./blocks";

export type Viewer =
  | { kind: "text"; text: string }
  | { kind: "json"; text: string; value: JsonValue }
  | { kind: "image"; src: string; data: string }
  | { kind: "binary"; data: string };

/** `application/json`, `application/ld+json`, `text/json`, with or without parameters. */
export function isJsonMime(mimeType: string | null): boolean {
  if (mimeType === null) return false;
  const essence = mimeType.split(";")[0]!.trim().toLowerCase();
  return essence === "application/json" || essence === "text/json" || essence.endsWith("+json");
}

/** The viewer for one body: JSON text that does not parse falls back to text. */
export function viewerFor(body: ResourceBody): Viewer {
  if (body.text !== null) {
    if (isJsonMime(body.mimeType)) {
      try {
        return { kind: "json", text: body.text, value: JSON.parse(body.text) as JsonValue };
      } catch {
        return { kind: "text", text: body.text };
      }
    }
    return { kind: "text", text: body.text };
  }
  if (body.blob?.imageSrc) return { kind: "image", src: body.blob.imageSrc, data: body.blob.data };
  return { kind: "binary", data: body.blob?.data ?? "" };
}
