import type { ReactNode } from "react";

/** A quiet sentence where content will be. */
export function EmptyState({ children }: { children: ReactNode }) {
  return <div className="empty-state">{children}</div>;
}
