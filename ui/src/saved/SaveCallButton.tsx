import { Bookmark } from "lucide-react";

/** "Save call", beside a tab's Call / Read / Get button. */
export function SaveCallButton({ onClick, disabled = false }: { onClick: () => void; disabled?: boolean }) {
  return (
    <button
      type="button"
      className="button"
      data-testid="save-call-button"
      onClick={onClick}
      disabled={disabled}
      title="Save this call under a name, to run it again from the Saved tab"
    >
      <Bookmark size={14} aria-hidden />
      Save call
    </button>
  );
}
