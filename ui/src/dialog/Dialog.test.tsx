import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Dialog } from "./Dialog";

afterEach(cleanup);

/** A button that opens a dialog, as the app's do: the dialog is there while it is open. */
function Opener({ title, onClose = () => {} }: { title: string; onClose?: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        open {title}
      </button>
      {open && (
        <Dialog
          title={title}
          testId={title}
          onClose={() => {
            onClose();
            setOpen(false);
          }}
          footer={<button type="button">ok</button>}
        >
          <input aria-label={`${title} field`} />
        </Dialog>
      )}
    </>
  );
}

describe("the dialog shell", () => {
  it("is a modal dialog named by its title, with a close button and the footer given", () => {
    const onClose = vi.fn();
    render(
      <Dialog title="Replay" testId="replay-dialog" className="modal-wide" onClose={onClose} footer={<button type="button">Run</button>}>
        body
      </Dialog>,
    );
    const dialog = screen.getByRole("dialog", { name: "Replay" });
    expect(dialog.getAttribute("aria-modal")).toBe("true");
    expect(dialog.className).toBe("modal modal-wide");
    expect(dialog.dataset.testid).toBe("replay-dialog");
    expect(dialog.querySelector(".modal-header h2")?.textContent).toBe("Replay");
    expect(dialog.querySelector(".modal-body")?.textContent).toBe("body");
    expect(dialog.querySelector(".modal-footer")?.textContent).toBe("Run");
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("closes on a press on the backdrop, not on one inside", () => {
    const onClose = vi.fn();
    render(
      <Dialog title="Compare" onClose={onClose}>
        body
      </Dialog>,
    );
    fireEvent.mouseDown(screen.getByRole("dialog"));
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.mouseDown(screen.getByRole("dialog").parentElement!);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("is a form when it submits, and Enter in a field submits it", () => {
    const onSubmit = vi.fn((e: { preventDefault: () => void }) => e.preventDefault());
    render(
      <Dialog title="Save call" onClose={() => {}} onSubmit={onSubmit}>
        <input aria-label="name" />
      </Dialog>,
    );
    expect(screen.getByRole("dialog").tagName).toBe("FORM");
    fireEvent.submit(screen.getByLabelText("name"));
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it("closes the dialog on top with Escape, and only that one", () => {
    const closedBelow = vi.fn();
    const closedAbove = vi.fn();
    render(
      <>
        <Opener title="below" onClose={closedBelow} />
        <Opener title="above" onClose={closedAbove} />
      </>,
    );
    fireEvent.click(screen.getByText("open below"));
    fireEvent.click(screen.getByText("open above"));
    fireEvent.keyDown(window, { key: "Escape" });
    expect(closedAbove).toHaveBeenCalledTimes(1);
    expect(closedBelow).not.toHaveBeenCalled();
    expect(screen.queryByTestId("above")).toBeNull();
    fireEvent.keyDown(window, { key: "Escape" });
    expect(closedBelow).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId("below")).toBeNull();
  });

  it("takes the focus on open and gives it back to the opener on close", () => {
    render(<Opener title="Settings" />);
    const opener = screen.getByText("open Settings");
    opener.focus();
    fireEvent.click(opener);
    expect(document.activeElement).toBe(screen.getByRole("dialog"));
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(document.activeElement).toBe(opener);
  });

  it("leaves the focus on a field of its own that took it on open", () => {
    render(
      <Dialog title="Add server" onClose={() => {}}>
        <input aria-label="name" autoFocus />
      </Dialog>,
    );
    expect(document.activeElement).toBe(screen.getByLabelText("name"));
  });
});
