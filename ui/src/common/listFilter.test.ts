import { describe, expect, it } from "vitest";
import { filterItems, searchText } from "./listFilter";

const names = ["get_current_weather", "add", "slow-task", "Create.Order"];
const texts = names.map((name) => searchText(name));

describe("filterItems", () => {
  it("keeps the items holding every word, in any case and order", () => {
    expect(filterItems(names, texts, "weather GET")).toEqual(["get_current_weather"]);
    expect(filterItems(names, texts, "order create")).toEqual(["Create.Order"]);
  });

  it("reads _ - . / as spaces, in the query and in the names", () => {
    expect(filterItems(names, texts, "slow_task")).toEqual(["slow-task"]);
    expect(filterItems(names, texts, "current-weather")).toEqual(["get_current_weather"]);
  });

  it("keeps everything for an empty query, and nothing when no item matches", () => {
    expect(filterItems(names, texts, "  ")).toBe(names);
    expect(filterItems(names, texts, "nothing")).toEqual([]);
  });

  it("matches a tool's title and description as well as its name", () => {
    const text = searchText("t1", "Weather now", null, "Reads the sky");
    expect(filterItems(["t1"], [text], "sky")).toEqual(["t1"]);
    expect(filterItems(["t1"], [text], "now weather")).toEqual(["t1"]);
  });
});
