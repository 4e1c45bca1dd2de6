import type { ContentsItem } from "../bindings/ContentsItem";
import { JsonBlock } from "../common/JsonBlock";
import { problemText } from "./blocks";
import { ResourceBodyView } from "./ResourceBodyView";

/**
 * One item of a `resources/read` result as the engine read it: the resource's contents, or why
 * they cannot be shown (worded by `cannotShow`, else the bare reason) with the JSON as sent.
 */
export function ContentsItemView({ item, cannotShow }: { item: ContentsItem; cannotShow?: (problem: string) => string }) {
  if (item.read === "contents") return <ResourceBodyView contents={item} />;
  const problem = problemText(item.problem);
  return (
    <div className="block-unknown">
      <div className="inline-error">{cannotShow ? cannotShow(problem) : problem}</div>
      <JsonBlock value={item.raw} />
    </div>
  );
}
