import { RefreshCw } from "lucide-react";

export function RefreshButton({ onClick, busy, label }: { onClick: () => void; busy: boolean; label: string }) {
  return (
    <button
      type="button"
      className="icon-button"
      onClick={onClick}
      disabled={busy}
      title={label}
      aria-label={label}
    >
      <RefreshCw size={14} className={busy ? "spin" : undefined} aria-hidden />
    </button>
  );
}
