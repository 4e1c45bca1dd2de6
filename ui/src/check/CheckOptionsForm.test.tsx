import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CheckRunOptions } from "../bindings/CheckRunOptions";
import { defaultOptions } from "../state/check";
import type { ListState } from "../state/lists";
import type { ToolView } from "../bindings/ToolView";
import { toolView } from "../testing/views";
import { CheckOptionsForm } from "./CheckOptionsForm";

afterEach(cleanup);

const tools: ListState<ToolView> = {
  status: "loaded",
  error: null,
  items: [toolView({ name: "look", annotations: { read_only_hint: true } }), toolView({ name: "delete_all" })],
};

function form(options: CheckRunOptions, onChange = vi.fn()) {
  render(<CheckOptionsForm options={options} tools={tools} disabled={false} onChange={onChange} />);
  return onChange;
}

describe("the check's options", () => {
  it("calls no tool by default, and lists none", () => {
    const options = defaultOptions();
    expect(options.calls.none).toBe(true);
    form(options);
    expect(screen.queryByTestId("check-tools")).toBeNull();
    expect((screen.getByTestId("check-call-tools") as HTMLInputElement).checked).toBe(false);
  });

  it("turned on, lists the read-only tools first as called, and the others to tick", () => {
    const onChange = form({ ...defaultOptions(), calls: { named: [], all: false, none: false } });
    expect(within(screen.getByTestId("check-read-only-tools")).getByText("look")).toBeTruthy();
    expect(within(screen.getByTestId("check-read-only-tools")).queryByText("delete_all")).toBeNull();
    fireEvent.click(screen.getByTestId("check-call-delete_all"));
    expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ calls: { named: ["delete_all"], all: false, none: false } }));
  });

  it("draws a hundred tools to pick at most, and finds the others by name", () => {
    const many: ListState<ToolView> = {
      status: "loaded",
      error: null,
      items: [
        ...Array.from({ length: 150 }, (_, i) => toolView({ name: `ro_${i}`, annotations: { read_only_hint: true } })),
        ...Array.from({ length: 250 }, (_, i) => toolView({ name: `tool_${i}` })),
      ],
    };
    render(
      <CheckOptionsForm options={{ ...defaultOptions(), calls: { named: [], all: false, none: false } }} tools={many} disabled={false} onChange={vi.fn()} />,
    );
    expect(screen.getByTestId("check-read-only-more").textContent).toBe("and 50 more");
    expect(screen.getAllByRole("checkbox").filter((c) => c.dataset.testid?.startsWith("check-call-tool_"))).toHaveLength(100);
    expect(screen.getByTestId("check-tools-shown").textContent).toBe("100 of 250 shown");
    fireEvent.change(screen.getByTestId("check-tools-filter"), { target: { value: "tool_249" } });
    expect(screen.getByTestId("check-call-tool_249")).toBeTruthy();
    expect(screen.getByTestId("check-tools-shown").textContent).toBe("1 of 1 shown");
  });

  it("leaves out an area unticked", () => {
    const onChange = form(defaultOptions());
    expect((screen.getByTestId("check-area-pick-stdio") as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByTestId("check-area-pick-stdio"));
    expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ skip: ["stdio"] }));
  });
});
