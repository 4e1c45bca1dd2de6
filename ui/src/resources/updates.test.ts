import { beforeEach, describe, expect, it, vi } from "vitest";
import { ipc, resourcesIpc } from "../ipc";
import { isSubscribed, readFresh, setSubscription } from "./subscriptions";
import { serverCalls } from "../state/calls";
import { connections, newServerState, updateServer } from "../state/connections";
import { dispatchEvents } from "../state/dispatcher";
import { readResult } from "../testing/results";

const ID = "updates-test";
const server = () => connections.getState().servers[ID]!;
const updated = (uri: string) =>
  dispatchEvents(
    [{ type: "notification", server_id: ID, notification: { kind: "resource_updated", uri } }],
    1_700_000_000_000_000,
  );

beforeEach(() => {
  updateServer(ID, () => newServerState(ID));
});

describe("resource updates and subscriptions", () => {
  it("records each update notification as news until the resource is read again", async () => {
    updated("demo://text/3");
    updated("demo://text/3");
    expect(server().resources.updated?.["demo://text/3"]).toEqual({
      wallUs: 1_700_000_000_000_000,
      count: 2,
      stale: true,
    });
    const cache = { ttl_ms: 300_000, scope: "public" as const, reused: null };
    vi.spyOn(ipc, "readResourceCached").mockResolvedValue({ result: readResult("read/empty"), cache });
    await readFresh(ID, "demo://text/3");
    expect(server().resources.updated?.["demo://text/3"]?.stale).toBe(false);
    // The read keeps the engine's caching hints for the result's line.
    expect(serverCalls(ID).reads["demo://text/3"]).toMatchObject({ status: "done", cache });
  });

  it("keeps the subscriptions the server agreed to, and says when it refused", async () => {
    vi.spyOn(resourcesIpc, "subscribe").mockResolvedValueOnce(undefined).mockRejectedValueOnce("Resource not found");
    vi.spyOn(resourcesIpc, "unsubscribe").mockResolvedValue(undefined);
    expect(await setSubscription(ID, "demo://text/3", true)).toBeNull();
    expect(isSubscribed(server(), "demo://text/3")).toBe(true);
    expect(await setSubscription(ID, "demo://nope", true)).toBe(
      "Could not subscribe to demo://nope: Resource not found",
    );
    expect(isSubscribed(server(), "demo://nope")).toBe(false);
    expect(await setSubscription(ID, "demo://text/3", false)).toBeNull();
    expect(isSubscribed(server(), "demo://text/3")).toBe(false);
  });

  it("forgets subscriptions and updates when a new connection starts", async () => {
    vi.spyOn(resourcesIpc, "subscribe").mockResolvedValue(undefined);
    await setSubscription(ID, "demo://text/1", true);
    updated("demo://text/1");
    dispatchEvents([{ type: "status", server_id: ID, status: { state: "connecting" } }]);
    expect(server().resources.subscribed).toEqual([]);
    expect(server().resources.updated).toEqual({});
  });
});
