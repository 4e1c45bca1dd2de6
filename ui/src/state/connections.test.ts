import { beforeEach, describe, expect, it } from "vitest";
import type { ServerEntry } from "../bindings/ServerEntry";
import { connections, resetConnections, select, setCatalog } from "./connections";

const entry = (id: string): ServerEntry => ({
  id,
  name: id,
  target: { transport: "stdio", command: "demo", args: [], env: [], cwd: null, secret_env: [] },
  era: "auto",
});

describe("selection and the welcome view", () => {
  beforeEach(() => resetConnections());

  it("selects the first server when the catalog loads", () => {
    setCatalog([entry("demo"), entry("other")]);
    expect(connections.getState().selectedId).toBe("demo");
  });

  it("keeps the welcome view up through catalog changes until a server is selected", () => {
    select(null);
    setCatalog([entry("demo")]);
    setCatalog([entry("demo"), entry("added")]);
    expect(connections.getState().selectedId).toBeNull();
    expect(connections.getState().welcome).toBe(true);

    select("demo");
    expect(connections.getState().welcome).toBe(false);
    setCatalog([entry("added")]);
    // The selected server was removed: another one is picked, the welcome view is not back.
    expect(connections.getState().selectedId).toBe("added");
  });
});
