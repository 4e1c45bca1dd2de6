import type { ComponentType, ReactNode } from "react";

/** One tab of a tab bar (a server's, or a reopened recording's): roving focus, its test id,
 * and what follows its label (a count, say). */
export function TabButton({
  id,
  active,
  icon: Icon,
  label,
  describedBy,
  onSelect,
  children,
}: {
  id: string;
  active: boolean;
  icon: ComponentType<{ size?: number }>;
  label: string;
  /** The id of what names the tab's group, read after its label. */
  describedBy?: string;
  onSelect: () => void;
  children?: ReactNode;
}) {
  return (
    <button
      type="button"
      role="tab"
      aria-selected={active}
      tabIndex={active ? 0 : -1}
      className={`tab${active ? " active" : ""}`}
      data-testid={`tab-${id}`}
      aria-describedby={describedBy}
      onClick={onSelect}
    >
      <Icon size={14} />
      {label}
      {children}
    </button>
  );
}
