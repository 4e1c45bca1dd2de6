import type { ReactNode } from "react";

/**
 * Where content will be, before there is any: what will appear here (`title`, optional) and how
 * to make it appear (`children`), with an optional action (a button that does it).
 */
export function EmptyState({
  title,
  children,
  action,
  testId,
}: {
  title?: ReactNode;
  children?: ReactNode;
  action?: ReactNode;
  testId?: string;
}) {
  return (
    <div className="empty-state" data-testid={testId}>
      {title && <div className="empty-state-title">{title}</div>}
      {children && <div className="empty-state-body">{children}</div>}
      {action && <div className="empty-state-action">{action}</div>}
    </div>
  );
}
