// Every diagnosis kind of the connection doctor, worded in every language: a kind added in Rust
// without a sample here fails `tsc`.
import { describe, expect, it } from "vitest";
import type { Diagnosis } from "../bindings/Diagnosis";
import { strictT } from "../i18n/strictT";
import { hintText } from "./DiagnosisHints";

const samples: Record<Diagnosis["kind"], Diagnosis[]> = {
  command_not_found: [
    { kind: "command_not_found", command: "npx", missing_launchers: [] },
    { kind: "command_not_found", command: "npx", missing_launchers: ["npx", "node"] },
  ],
  exited_early: [
    { kind: "exited_early", exit_code: 3, signal: null, stderr_tail: ["boom"] },
    { kind: "exited_early", exit_code: null, signal: 9, stderr_tail: [] },
  ],
  exited_after_ready: [
    { kind: "exited_after_ready", exit_code: 4, signal: null, stderr_tail: ["fatal: lost the database"] },
    { kind: "exited_after_ready", exit_code: null, signal: 9, stderr_tail: [] },
    { kind: "exited_after_ready", exit_code: null, signal: null, stderr_tail: [] },
  ],
  stdout_closed: [{ kind: "stdout_closed" }],
  wrong_path: [
    { kind: "wrong_path", url: "http://127.0.0.1:1/x", method: "POST", status: 404, answering: [] },
    { kind: "wrong_path", url: "http://127.0.0.1:1/x", method: "POST", status: 405, answering: ["http://127.0.0.1:1/mcp"] },
  ],
  tls: [
    { kind: "tls", url: "https://a.example", problem: { kind: "wrong_name", expected: "a.example", presented: ["b.example"] } },
    { kind: "tls", url: "https://a.example", problem: { kind: "expired", not_after: null } },
    { kind: "tls", url: "https://a.example", problem: { kind: "not_yet_valid" } },
    { kind: "tls", url: "https://a.example", problem: { kind: "untrusted_issuer" } },
    { kind: "tls", url: "https://a.example", problem: { kind: "other", detail: "handshake eof" } },
  ],
  unusable_challenge: [{ kind: "unusable_challenge", status: 401 }],
  wrong_content_type: [
    { kind: "wrong_content_type", content_type: "text/html" },
    { kind: "wrong_content_type", content_type: "" },
  ],
  proxy_not_inherited: [
    { kind: "proxy_not_inherited", names: ["HTTPS_PROXY"] },
    { kind: "proxy_not_inherited", names: ["HTTPS_PROXY", "NO_PROXY"] },
  ],
  needs_legacy_era: [{ kind: "needs_legacy_era", request: "elicitation", legacy_versions: ["2025-11-25"] }],
};

/** Words a diagnosis in `lng` with no fallback language; any key it asked for and missed is kept. */
function worder(lng: "en" | "zh-Hans") {
  const { t, missing } = strictT(lng, "common");
  return { word: (diagnosis: Diagnosis) => hintText(diagnosis, t), missing };
}

describe("every diagnosis kind, in every language", () => {
  for (const lng of ["en", "zh-Hans"] as const) {
    it(`has words in ${lng}, with no key missing`, () => {
      const { word, missing } = worder(lng);
      for (const diagnosis of Object.values(samples).flat()) {
        const text = word(diagnosis);
        expect(text.trim(), diagnosis.kind).not.toBe("");
        expect(text, diagnosis.kind).not.toContain("doctor.");
      }
      expect(missing).toEqual([]);
    });
  }

  it("tells a server that ended after it was ready apart from one that never answered", () => {
    const { word } = worder("en");
    expect(word({ kind: "exited_after_ready", exit_code: 4, signal: null, stderr_tail: ["x"] })).toBe(
      "The server exited with status 4 after the connection was ready; its last stderr lines are above. Reconnect; if it happens again, run the command in a terminal to see everything it says.",
    );
    const zh = worder("zh-Hans").word({ kind: "exited_after_ready", exit_code: null, signal: 9, stderr_tail: [] });
    expect(zh).toContain("连接就绪之后");
    expect(zh).toContain("9");
  });
});
