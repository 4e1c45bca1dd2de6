import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SamplingView } from "../bindings/SamplingView";
import { SamplingPanel } from "./SamplingPanel";
import { samplingRequest } from "../testing/results";

afterEach(cleanup);

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

function renderPanel(request: SamplingView = samplingRequest("sampling/weather")) {
  const onReply = vi.fn();
  const onReject = vi.fn();
  render(<SamplingPanel serverName="weather" request={request} onReply={onReply} onReject={onReject} />);
  return { onReply, onReject };
}

const byId = (id: string) => screen.getByTestId(id) as HTMLInputElement;

describe("SamplingPanel", () => {
  it("shows the request: messages with every block kind, system prompt, preferences, tools, limits", () => {
    renderPanel();
    const panel = screen.getByTestId("sampling-panel");
    expect(screen.getByRole("heading", { level: 2 }).textContent).toBe("weather asks for an LLM completion");
    const messages = screen.getAllByTestId("sampling-message");
    expect(messages.map((m) => m.dataset["role"])).toEqual(["user", "assistant", "user"]);
    expect(messages[0]!.textContent).toContain("What's the weather\nin Paris?");
    expect(screen.getByTestId("sampling-tool-use").textContent).toContain("get_weather");
    expect(screen.getByTestId("sampling-tool-use").textContent).toContain('"city": "Paris"');
    expect(screen.getByTestId("sampling-tool-result").textContent).toContain("18°C, sunny");
    expect(screen.getByRole("img").getAttribute("src")).toBe(`data:image/png;base64,${PNG}`);
    expect(panel.querySelector("audio")?.getAttribute("src")).toBe("data:audio/wav;base64,UklGRg==");
    expect(messages[2]!.textContent).toContain('unknown content type "mystery"');
    expect(messages[2]!.textContent).toContain('"type": "mystery"');
    expect(screen.getByTestId("sampling-system-prompt").textContent).toBe("You are a weather bot.");
    expect(screen.getByTestId("sampling-preferences").textContent).toContain("claude-sonnet");
    expect(screen.getByRole("meter", { name: "speed priority" }).getAttribute("aria-valuenow")).toBe("0.8");
    expect(screen.getByTestId("sampling-tools").textContent).toContain("Current weather for a city");
    expect(screen.getByTestId("sampling-tools").textContent).toContain("toolChoice: auto");
    expect(screen.getByTestId("sampling-max-tokens").textContent).toBe("512");
    expect(panel.textContent).toContain('"STOP"');
    expect(panel.textContent).toContain("includeContext");
    expect(panel.textContent).toContain("0.3");
  });

  it("approves a text reply with the model name and stop reason", () => {
    const { onReply } = renderPanel();
    expect(byId("sampling-model").value).toBe("periscope-human");
    expect(byId("sampling-stop-reason").value).toBe("endTurn");
    fireEvent.change(byId("sampling-reply-text"), { target: { value: "It is sunny.\n18°C." } });
    fireEvent.change(byId("sampling-model"), { target: { value: "me" } });
    fireEvent.change(byId("sampling-stop-reason"), { target: { value: "maxTokens" } });
    fireEvent.click(screen.getByTestId("sampling-approve"));
    expect(onReply).toHaveBeenCalledExactlyOnceWith({
      role: "assistant",
      content: { type: "text", text: "It is sunny.\n18°C." },
      model: "me",
      stopReason: "maxTokens",
    });
  });

  it("refuses to approve an empty text reply", () => {
    const { onReply } = renderPanel();
    fireEvent.change(byId("sampling-reply-text"), { target: { value: "   " } });
    fireEvent.click(screen.getByTestId("sampling-approve"));
    expect(onReply).not.toHaveBeenCalled();
    expect(screen.getByTestId("sampling-error").textContent).toMatch(/Write a reply/);
  });

  it("approves a tool use, once its input parses as an object", () => {
    const { onReply } = renderPanel();
    fireEvent.click(screen.getByTestId("sampling-mode-tool"));
    expect(byId("sampling-stop-reason").value).toBe("toolUse");
    fireEvent.change(byId("sampling-tool-name"), { target: { value: "get_time" } });
    fireEvent.change(byId("sampling-tool-input"), { target: { value: "[1]" } });
    fireEvent.click(screen.getByTestId("sampling-approve"));
    expect(onReply).not.toHaveBeenCalled();
    expect(screen.getByTestId("sampling-error").textContent).toBe("The input must be a JSON object, like {}.");
    fireEvent.change(byId("sampling-tool-input"), { target: { value: '{"zone": "CET"}' } });
    fireEvent.click(screen.getByTestId("sampling-approve"));
    expect(onReply).toHaveBeenCalledExactlyOnceWith({
      role: "assistant",
      content: { type: "tool_use", id: expect.stringMatching(/^toolu_[0-9a-f]+$/), name: "get_time", input: { zone: "CET" } },
      model: "periscope-human",
      stopReason: "toolUse",
    });
    fireEvent.click(screen.getByTestId("sampling-mode-text"));
    expect(byId("sampling-stop-reason").value).toBe("endTurn");
  });

  it("starts in tool mode when the server requires a tool, and disables it when none is offered", () => {
    renderPanel(samplingRequest("sampling/weather_tool_required"));
    expect(screen.getByTestId("sampling-tool-name")).toBeTruthy();
    cleanup();
    renderPanel(samplingRequest("sampling/no_tools"));
    expect((screen.getByTestId("sampling-mode-tool") as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId("sampling-reply-text")).toBeTruthy();
  });

  it("rejects with the reason given, or a default one", () => {
    const { onReject } = renderPanel();
    fireEvent.click(screen.getByTestId("sampling-reject"));
    fireEvent.change(byId("sampling-reject-reason"), { target: { value: "Too expensive" } });
    fireEvent.click(screen.getByTestId("sampling-reject"));
    expect(onReject.mock.calls).toEqual([["The user rejected the sampling request."], ["Too expensive"]]);
  });

  it("renders malformed params, with the raw JSON", () => {
    for (const name of ["sampling/params_null", "sampling/params_string", "sampling/params_array", "sampling/malformed_messages"] as const) {
      const bad = samplingRequest(name);
      renderPanel(bad);
      expect(screen.getByTestId("sampling-panel")).toBeTruthy();
      expect(screen.getByTestId("sampling-problems")).toBeTruthy();
      expect(screen.getByTestId("sampling-raw").textContent).toBe(JSON.stringify(bad.raw, null, 2));
      cleanup();
    }
  });

  it("shows only the media the engine found fit to show, and why not the rest", () => {
    renderPanel(samplingRequest("sampling/media_checks"));
    const message = screen.getByTestId("sampling-message");
    expect(message.querySelectorAll("img")).toHaveLength(1);
    expect(message.querySelectorAll("audio")).toHaveLength(1);
    expect(message.textContent).toContain('image block with mimeType "text/html"');
    expect(message.textContent).toContain("image block whose data is not base64");
    expect(message.textContent).toContain('image block with mimeType "image/png;x,y"');
  });
});
