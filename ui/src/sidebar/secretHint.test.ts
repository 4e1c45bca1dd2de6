import { describe, expect, it } from "vitest";
import { looksSecret } from "./secretHint";

describe("looksSecret", () => {
  it("knows names of keys, tokens and passwords", () => {
    for (const name of [
      "API_KEY",
      "OPENAI_API_KEY",
      "GITHUB_TOKEN",
      "DB_PASSWORD",
      "CLIENT_SECRET",
      "Authorization",
      "Proxy-Authorization",
      "X-Api-Key",
      "x-auth-token",
      "Cookie",
    ]) {
      expect(looksSecret(name, "x"), name).toBe(true);
    }
  });

  it("knows values shaped like tokens, whatever their name", () => {
    for (const value of [
      "sk-proj-abc123",
      "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
      "github_pat_11ABC",
      "xoxb-123-456",
      "Bearer abc",
      "AKIAIOSFODNN7EXAMPLE",
      "AIzaSyA-1234",
      "eyJhbGciOiJIUzI1NiJ9.e30.sig",
      "q8Zr3LwV9pX2mK7tB4nY6cJ1hF5dG0sA",
    ]) {
      expect(looksSecret("SETTING", value), value).toBe(true);
    }
  });

  it("leaves ordinary settings alone", () => {
    const settings: Array<[string, string]> = [
      ["LOG_LEVEL", "debug"],
      ["NODE_ENV", "production"],
      ["HOME", "/home/ada/projects/some-long-folder-name-2024"],
      ["SERVER_URL", "https://example.com/api/v1/endpoint?x=1"],
      ["Accept-Language", "en-GB,en;q=0.9"],
      ["PORT", "8080"],
      ["GREETING", "hello world, how are you today"],
      ["MODE", "aaaaaaaaaaaaaaaaaaaaaaaa1111"],
    ];
    for (const [name, value] of settings) {
      expect(looksSecret(name, value), `${name}=${value}`).toBe(false);
    }
  });
});
