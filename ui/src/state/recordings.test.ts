import { beforeEach, describe, expect, it } from "vitest";
import type { RecordingInfo } from "../bindings/RecordingInfo";
import type { ServerEntry } from "../bindings/ServerEntry";
import { connections, resetConnections, select, setCatalog } from "./connections";
import { dropRecording, isRecordingId, putRecording, recordings, setRecordings } from "./recordings";

const entry = (id: string): ServerEntry => ({
  id,
  name: id,
  target: { transport: "stdio", command: "demo", args: [], env: [], cwd: null, secret_env: [] },
  era: "auto",
});

const info = (id: string, frames = 1): RecordingInfo => ({
  id,
  name: `${id}.jsonl`,
  path: `/tmp/${id}.jsonl`,
  target: {},
  format_version: "1.1",
  periscope_version: "0.1.0",
  started_wall_us: null,
  era: "legacy",
  protocol_version: null,
  identity: null,
  server_info: null,
  server: null,
  target_line: "",
  frames,
  exchanges: 0,
  stderr_lines: 0,
  flags: 0,
  skipped_lines: 0,
  tools: null,
  resources: null,
  resource_templates: null,
  prompts: null,
  auth_steps: [],
  decisions: [],
});

describe("reopened recordings", () => {
  beforeEach(() => {
    resetConnections();
    setRecordings([]);
  });

  it("are told from servers by their id", () => {
    expect(isRecordingId("recording:1")).toBe(true);
    expect(isRecordingId("demo")).toBe(false);
    expect(isRecordingId(null)).toBe(false);
  });

  it("are added once, replaced when opened again, and dropped", () => {
    putRecording(info("recording:1"));
    putRecording(info("recording:2"));
    putRecording(info("recording:1", 9));
    expect(recordings.getState().list.map((r) => [r.id, r.frames])).toEqual([
      ["recording:1", 9],
      ["recording:2", 1],
    ]);
    dropRecording("recording:1");
    expect(recordings.getState().list.map((r) => r.id)).toEqual(["recording:2"]);
  });

  it("stay selected when the catalog changes", () => {
    setCatalog([entry("demo")]);
    select("recording:1");
    setCatalog([entry("demo"), entry("other")]);
    expect(connections.getState().selectedId).toBe("recording:1");
  });
});
