// The Overview renders the engine's reading of what the server said about itself (its name,
// icons and capabilities, and what was off in them), in English and in Chinese.
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ServerIdentity } from "../bindings/ServerIdentity";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { applyLanguage } from "../i18n";
import { newServerState, resetConnections, type ServerState } from "../state/connections";
import { offers } from "../state/lists";
import { setFrameSchedule } from "../state/notifier";
import { capabilities, rawOf, serverInfo } from "../testing/results";
import { OverviewTab } from "./OverviewTab";

const invoke = vi.hoisted(() => vi.fn());
vi.mock("@tauri-apps/api/core", () => ({ invoke, Channel: class {} }));

type InfoName = Parameters<typeof serverInfo>[0];
type CapsName = Parameters<typeof capabilities>[0];

function ready(info: InfoName, caps: CapsName): ServerState {
  const identity: ServerIdentity = {
    era: "legacy",
    era_reason: { how: "pinned" },
    supported_versions: [],
    protocol_version: "2025-11-25",
    capabilities: rawOf(caps) as JsonValue,
    server_info: rawOf(info) as JsonValue,
    info: serverInfo(info),
    offers: capabilities(caps),
    instructions: null,
    warnings: [],
    latency_us: 1200,
    transport: "stdio",
  };
  return { ...newServerState("s"), status: { state: "ready", protocol_version: "2025-11-25" }, identity };
}

beforeEach(() => {
  setFrameSchedule((f) => f());
  resetConnections();
  invoke.mockReset();
  invoke.mockImplementation(() => Promise.resolve(null));
});
afterEach(() => {
  cleanup();
  applyLanguage("en");
});

describe("the Overview of a server's identity", () => {
  it("shows its name, inline icon, remote icon by name, and each capability with its flags", () => {
    render(<OverviewTab server={ready("server_info/spec", "capabilities/spec")} />);
    expect(screen.getByTestId("overview-server-name").textContent).toBe("weather");
    const icons = screen.getByTestId("server-icons");
    expect(icons.querySelectorAll("img")).toHaveLength(1);
    expect(icons.textContent).toContain("Load 1 remote icon");
    expect(icons.textContent).not.toContain("javascript:");
    const items = [...document.querySelectorAll(".capabilities li")].map((li) => li.textContent);
    expect(items).toEqual(["completions", "logging", "resourcessubscribelistChanged", "toolslistChanged"]);
    expect(screen.queryByTestId("overview-warnings")).toBeNull();
  });

  it("names what is off in serverInfo and capabilities, in English and Chinese", () => {
    render(<OverviewTab server={ready("server_info/no_version", "capabilities/resources_true")} />);
    const warnings = screen.getByTestId("overview-warnings").textContent;
    expect(warnings).toContain("The server's identity is off the spec: serverInfo.version is missing");
    expect(warnings).toContain("capabilities.resources is not of type object");
    cleanup();
    applyLanguage("zh-Hans");
    render(<OverviewTab server={ready("server_info/no_version", "capabilities/resources_true")} />);
    expect(screen.getByTestId("overview-warnings").textContent).toContain("服务器的身份信息不合规范");
  });

  it("offers every list when the capabilities could not be read, and only the declared ones otherwise", () => {
    const unknown = ready("server_info/spec", "capabilities/not_an_object");
    expect(["tools", "prompts", "resources", "resource_templates"].every((k) => offers(unknown, k as never))).toBe(true);
    const spec = ready("server_info/spec", "capabilities/spec");
    expect(offers(spec, "tools")).toBe(true);
    expect(offers(spec, "resource_templates")).toBe(true);
    expect(offers(spec, "prompts")).toBe(false);
  });
});
