import { describe, expect, it } from "vitest";
import { NO_FILTER } from "../state/trafficFilter";
import { ALL_FRAMES, isNoFilter, toQuery } from "./filter";

describe("toQuery", () => {
  it("asks for every frame (not stderr or HTTP) when nothing narrows", () => {
    expect(ALL_FRAMES).toEqual({
      direction: null,
      channel: null,
      kinds: ["request", "notification", "response", "error_response", "batch", "malformed"],
      method: null,
      statuses: [],
      from_wall_us: null,
      to_wall_us: null,
      text: null,
    });
    expect(isNoFilter(NO_FILTER)).toBe(true);
    expect(isNoFilter({ ...NO_FILTER, text: "   " })).toBe(true);
  });

  it("turns each field of the bar into the engine's filter", () => {
    const query = toQuery({
      text: " message 42 ",
      direction: "in",
      channel: "app",
      kind: "notification",
      method: " notifications/message ",
      status: "schema_violation",
      fromUs: 1,
      toUs: 2,
    });
    expect(query).toEqual({
      direction: "in",
      channel: "app",
      kinds: ["notification"],
      method: "notifications/message",
      statuses: ["schema_violation"],
      from_wall_us: 1,
      to_wall_us: 2,
      text: "message 42",
    });
    expect(toQuery({ ...NO_FILTER, kind: "everything" }).kinds).toEqual([]);
    expect(isNoFilter({ ...NO_FILTER, kind: "stderr" })).toBe(false);
  });
});
