import { describe, expect, it } from "vitest";
import type { HistoryEntry } from "../bindings/HistoryEntry";
import type { SavedCall } from "../bindings/SavedCall";
import { applyEdit, duplicateCall, filterHistory, filterSaved, parseArgumentsText } from "./logic";

const entry = (id: string, change: Partial<HistoryEntry>): HistoryEntry => ({
  id,
  server_id: "demo",
  kind: "tool",
  target: "add",
  arguments: {},
  started_wall_us: 1,
  duration_us: 1000,
  outcome: "ok",
  result_preview: null,
  truncated: false,
  origin: { by: "user" },
  ...change,
});

const saved: SavedCall = {
  id: "s1",
  server_id: "demo",
  name: "two plus three",
  kind: "tool",
  target: "add",
  arguments: { a: 2, b: 3 },
  created_wall_us: 5,
};

describe("filterHistory", () => {
  const history = [
    entry("1", { target: "add", arguments: { a: 40, b: 2 }, result_preview: { structuredContent: { sum: 42 } } }),
    entry("2", { target: "echo", arguments: { message: "Hello World" }, result_preview: { content: [{ type: "text", text: "echo: Hello World" }] } }),
    entry("3", { kind: "resource", target: "demo://text/1", outcome: "protocol_error", result_preview: { error: "Resource not found", code: -32002 } }),
    entry("4", { target: "big", truncated: true, result_preview: '{"content":[{"type":"text","text":"needle in a haystack' }),
  ];
  const ids = (query: string) => filterHistory(history, query).map((e) => e.id);

  it("keeps everything for an empty query", () => {
    expect(ids("")).toEqual(["1", "2", "3", "4"]);
    expect(ids("   ")).toEqual(["1", "2", "3", "4"]);
  });

  it("searches the name, the arguments and the result, in any case", () => {
    expect(ids("ECHO")).toEqual(["2"]);
    expect(ids('"a":40')).toEqual(["1"]);
    expect(ids("sum")).toEqual(["1"]);
    expect(ids("not found")).toEqual(["3"]);
    expect(ids("demo://text")).toEqual(["3"]);
  });

  it("needs every word, and reads a truncated result's text", () => {
    expect(ids("hello world")).toEqual(["2"]);
    expect(ids("hello add")).toEqual([]);
    expect(ids("needle")).toEqual(["4"]);
    expect(ids("protocol error")).toEqual(["3"]);
  });

  it("filters saved calls by name, target or arguments", () => {
    expect(filterSaved([saved], "PLUS").length).toBe(1);
    expect(filterSaved([saved], "add").length).toBe(1);
    expect(filterSaved([saved], "echo").length).toBe(0);
  });
});

describe("editing a saved call", () => {
  it("takes a new name and arguments", () => {
    const edited = applyEdit(saved, "  forty two ", '{"a": 40, "b": 2}');
    expect(edited).toEqual({ call: { ...saved, name: "forty two", arguments: { a: 40, b: 2 } } });
  });

  it("refuses an empty name, bad JSON and non-objects", () => {
    expect(applyEdit(saved, " ", "{}")).toEqual({ error: "Give the saved call a name." });
    expect(applyEdit(saved, "x", "{a: 1}")).toEqual({ error: expect.stringContaining("not valid JSON") });
    expect(applyEdit(saved, "x", "[1, 2]")).toEqual({ error: expect.stringContaining("JSON object") });
    expect(applyEdit(saved, "x", "null")).toEqual({ error: expect.stringContaining("JSON object") });
  });

  it("checks the arguments against the kind of call", () => {
    expect(parseArgumentsText('{"name": 5}', "prompt")).toEqual({ error: expect.stringContaining("name") });
    expect(parseArgumentsText('{"name": "Ada"}', "prompt")).toEqual({ args: { name: "Ada" } });
    expect(parseArgumentsText('{"x": 1}', "resource")).toEqual({ error: expect.stringContaining("no arguments") });
    expect(parseArgumentsText("", "tool")).toEqual({ args: {} });
  });

  it("names copies so they never clash", () => {
    const copy = duplicateCall(saved, ["two plus three", "two plus three (copy)"], "s2", 9);
    expect(copy).toEqual({ ...saved, id: "s2", name: "two plus three (copy 2)", created_wall_us: 9 });
    expect(copy.arguments).not.toBe(saved.arguments);
    expect(duplicateCall(copy, [], "s3", 10).name).toBe("two plus three (copy)");
  });
});
