// Which viewer shows a resource's contents: the engine decides how they are shown (`shown_as`,
// from the MIME type and whether the text parses or the blob is base64); this turns that into
// what the viewer needs.
import type { ResourceContents } from "../bindings/ResourceContents";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { dataUri } from "../format";

export type Viewer =
  | { kind: "text"; text: string }
  | { kind: "json"; text: string; value: JsonValue }
  | { kind: "image"; src: string; data: string }
  | { kind: "binary"; data: string };

/** The viewer for one resource's contents. */
export function viewerFor(contents: ResourceContents): Viewer {
  const text = contents.text ?? "";
  const data = contents.blob?.data ?? "";
  switch (contents.shown_as) {
    case "json":
      // The engine parsed it already: this parse is for the tree, and cannot fail.
      return { kind: "json", text, value: JSON.parse(text) as JsonValue };
    case "text":
      return { kind: "text", text };
    case "image":
      return { kind: "image", src: dataUri(contents.mime_type ?? "", data), data };
    case "binary":
      return { kind: "binary", data };
  }
}
