import type { ListState } from "../state/lists";

interface Props {
  list: ListState;
  /** "resources", "templates". */
  noun: string;
  testIdSuffix: string;
  onMore: () => void;
  onAll: () => void;
}

/** Under a list loaded page by page: how many are shown, and Load more / Load all while the server has more. */
export function Pager({ list, noun, testIdSuffix, onMore, onAll }: Props) {
  if (!list.nextCursor) return null;
  const busy = list.status === "loading";
  return (
    <div className="pager" data-testid={`pager${testIdSuffix}`}>
      <span className="muted small">
        {list.items.length} {noun} shown; the server has more.
      </span>
      <div className="pager-buttons">
        <button
          type="button"
          className="button button-small"
          data-testid={`load-more${testIdSuffix}`}
          disabled={busy}
          onClick={onMore}
        >
          Load more
        </button>
        <button
          type="button"
          className="button button-small"
          data-testid={`load-all${testIdSuffix}`}
          disabled={busy}
          onClick={onAll}
        >
          Load all
        </button>
      </div>
    </div>
  );
}
