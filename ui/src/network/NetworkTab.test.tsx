import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { ServerTarget } from "../bindings/ServerTarget";
import { NetworkTab } from "./NetworkTab";
import { exchange } from "../state/exchanges.fixtures";
import { connections, updateServer, useServer } from "../state/connections";
import { dispatchEvents } from "../state/dispatcher";
import { traffic } from "../state/traffic";

afterEach(cleanup);

const http: ServerTarget = {
  transport: "http",
  url: "https://example.com/mcp",
  headers: [],
  secret_headers: [],
  mode: "auto",
  oauth: { client_id: null, client_metadata_url: null, dpop: "auto", workload_identity: null },
};
const stdio: ServerTarget = { transport: "stdio", command: "demo", args: [], env: [], cwd: null, secret_env: [] };

function Harness({ id, target }: { id: string; target: ServerTarget }) {
  const server = useServer(id);
  return server ? <NetworkTab server={server} target={target} /> : null;
}

describe("NetworkTab", () => {
  it("lists exchanges and shows one's detail", () => {
    act(() => {
      dispatchEvents([
        { type: "http", server_id: "net-1", exchange: exchange(1) },
        {
          type: "http",
          server_id: "net-1",
          exchange: exchange(2, { method: "GET", status: null, error: "connection refused", sent_frame: null }),
        },
      ]);
    });
    render(<Harness id="net-1" target={http} />);
    expect(screen.getByTestId("network-count").textContent).toBe("2 exchanges");
    const rows = screen.getAllByTestId("network-row");
    expect(rows.map((r) => [r.dataset.seq, r.dataset.method, r.dataset.status])).toEqual([
      ["1", "POST", "200"],
      ["2", "GET", "failed"],
    ]);
    expect(rows[1]!.textContent).toContain("failed: connection refused");
    expect(rows[0]!.textContent).toContain("/mcp?x=1");
    expect(rows[0]!.textContent).toContain("12.3 ms");

    fireEvent.click(rows[0]!);
    const detail = screen.getByTestId("exchange-detail");
    expect(detail.textContent).toContain("https://example.com/mcp?x=1");
    expect(screen.getByTestId("exchange-request-headers").textContent).toContain("[redacted]");
    expect(screen.getByTestId("exchange-response-headers").textContent).toContain("text/event-stream");
    expect(screen.getByTestId("exchange-frame").textContent).toBe("carried frame #1");

    fireEvent.click(screen.getByTestId("exchange-frame"));
    const server = connections.getState().servers["net-1"]!;
    expect(server.tab).toBe("traffic");
    expect(traffic.getState()["net-1"]!.trafficView.selectedSeq).toBe(1);
  });

  it("says a stdio server has no HTTP", () => {
    act(() => updateServer("net-2", (s) => s));
    render(<Harness id="net-2" target={stdio} />);
    expect(screen.getByText("No HTTP: this server speaks over stdio.")).toBeTruthy();
    expect(screen.getByTestId("network-count").textContent).toBe("0 exchanges");
  });
});
