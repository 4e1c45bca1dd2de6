import { afterEach, describe, expect, it, vi } from "vitest";
import type { IconSource } from "../bindings/IconSource";
import type { RememberedArgs } from "../bindings/RememberedArgs";
import { loadArgs, loadRemembered, resetRemembered, saveArgs } from "./remembered";
import { toolView } from "../testing/views";
import { hintLabel, toolInfo } from "./tools";

describe("toolInfo", () => {
  it("reads annotations as claims, true and false, with their title", () => {
    // As the engine reads `{title: "Remove", destructiveHint: true, readOnlyHint: false,
    // idempotentHint: "yes"}`: the string is no claim (views/tool.rs).
    const tool = toolInfo(
      toolView({
        name: "rm",
        annotations: { title: "Remove", destructive_hint: true, read_only_hint: false, true_hints: ["destructive"] },
      }),
    )!;
    expect(tool.annotationTitle).toBe("Remove");
    expect(tool.claims.map((c) => [c.key, c.value, hintLabel(c)])).toEqual([
      ["readOnlyHint", false, "may modify its environment"],
      ["destructiveHint", true, "may be destructive"],
    ]);
  });

  it("shows the icons the engine placed inline, names remote ones, and leaves refused ones out", () => {
    // The engine places each icon by its scheme (vocabulary/views/icon.rs, tested there).
    const icon = (src: string, source: IconSource, mime_type: string | null = null) => ({ src, source, mime_type, sizes: [], theme: null });
    const tool = toolInfo(
      toolView({
        name: "t",
        icons: [
          icon("data:image/png;base64,AAAA", "inline", "image/png"),
          icon("https://example.com/i.png", "remote"),
          icon("javascript:alert(1)", "refused"),
        ],
      }),
    )!;
    expect(tool.icons).toEqual([{ src: "data:image/png;base64,AAAA", mimeType: "image/png", sizes: null }]);
    expect(tool.remoteIcons).toEqual(["https://example.com/i.png"]);
  });

});

describe("remembered arguments", () => {
  afterEach(() => {
    localStorage.clear();
    resetRemembered();
  });

  it("keeps arguments per server and tool", () => {
    saveArgs("demo", "add", { a: 2, b: 40 });
    saveArgs("other", "add", { a: 1 });
    expect(loadArgs("demo", "add")).toEqual({ a: 2, b: 40 });
    expect(loadArgs("other", "add")).toEqual({ a: 1 });
    expect(loadArgs("demo", "echo")).toBeUndefined();
  });

  it("does not keep huge values", () => {
    saveArgs("demo", "big", { text: "x".repeat(300 * 1024) });
    expect(loadArgs("demo", "big")).toBeUndefined();
  });

  it("loads the stored ones, writes changes after a pause, and moves the old storage over once", async () => {
    vi.useFakeTimers();
    localStorage.setItem(`periscope.toolArgs.v1:${JSON.stringify(["demo", "echo"])}`, '{"message":"hi"}');
    localStorage.setItem(`periscope.toolArgs.v1:${JSON.stringify(["demo", "add"])}`, '{"a":0}');
    localStorage.setItem(`periscope.toolArgs.v1:${JSON.stringify(["demo", "bad"])}`, "{not json");
    const written: RememberedArgs[] = [];
    loadRemembered([{ server_id: "demo", tool: "add", args: { a: 1 } }], (entry) => {
      written.push(entry);
      return Promise.resolve();
    });
    expect(loadArgs("demo", "add")).toEqual({ a: 1 }); // the stored one wins
    expect(loadArgs("demo", "echo")).toEqual({ message: "hi" });
    expect(loadArgs("demo", "bad")).toBeUndefined();
    expect(written).toEqual([{ server_id: "demo", tool: "echo", args: { message: "hi" } }]);
    expect(Object.keys(localStorage)).toEqual([]);
    saveArgs("demo", "add", { a: 2 });
    saveArgs("demo", "add", { a: 3 });
    expect(written).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(written.slice(1)).toEqual([{ server_id: "demo", tool: "add", args: { a: 3 } }]);
    vi.useRealTimers();
  });
});
