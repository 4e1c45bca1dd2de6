import { parseReadResult } from "../content/blocks";
import { ResourceBodyView } from "../content/ResourceBodyView";
import { CacheHintLine } from "../common/CacheHintLine";
import { ErrorBox } from "../common/ErrorBox";
import { JsonBlock } from "../common/JsonBlock";
import type { RequestState } from "../state/calls";

/** What `resources/read` returned for one URI. */
export function ResourceContents({ uri, read }: { uri: string; read: RequestState }) {
  if (read.status === "running") return <div className="result-pending">Reading {uri}…</div>;
  if (read.status === "error") {
    return (
      <div data-testid="resource-contents" data-is-error="true">
        <ErrorBox title={`Could not read ${uri}`} message={read.error ?? "unknown error"} />
      </div>
    );
  }
  const contents = read.result === null ? [] : parseReadResult(read.result);
  return (
    <div className="resource-contents" data-testid="resource-contents" data-is-error="false">
      <CacheHintLine hint={read.cache} />
      {contents.length === 0 && <p className="muted">The server returned no contents.</p>}
      {contents.map((body, index) =>
        "problem" in body ? (
          <div key={index} className="block-unknown">
            <div className="inline-error">Cannot show these contents: {body.problem}</div>
            <JsonBlock value={body.raw} />
          </div>
        ) : (
          <ResourceBodyView key={index} body={body} />
        ),
      )}
    </div>
  );
}
