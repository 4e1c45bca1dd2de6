import { describe as group, expect, it } from "vitest";
import type { ImportedEntry } from "../bindings/ImportedEntry";
import { describe, missingSecrets, needKey, typedNeeds, withTyped } from "./importPreview";

const docs: ImportedEntry = {
  entry: {
    id: "docs",
    name: "docs",
    era: "auto",
    target: {
      transport: "http",
      url: "https://docs.example.com/mcp",
      headers: [
        ["X-Api-Key", ""],
        ["Accept-Language", "en"],
      ],
      secret_headers: ["x-api-key"],
      oauth: { client_id: null, client_metadata_url: null, dpop: "auto", workload_identity: null },
      mode: "auto",
    },
  },
  needs: [
    {
      place: { kind: "header", name: "X-Api-Key" },
      placeholder: "${input:api-key}",
      prompt: "Docs API key",
      password: true,
    },
  ],
  notes: [],
};

group("import preview", () => {
  it("names env variables and headers with their keychain mark, never their values", () => {
    const view = describe(docs.entry);
    expect(view.line).toBe("https://docs.example.com/mcp");
    expect(view.pairs).toEqual([
      { name: "X-Api-Key", secret: true, empty: true },
      { name: "Accept-Language", secret: false, empty: false },
    ]);
  });

  it("asks for an empty secret before the import and fills it in", () => {
    expect(typedNeeds(docs).map(needKey)).toEqual(["header:X-Api-Key"]);
    expect(missingSecrets(docs, {})).toEqual(["X-Api-Key"]);
    const typed = { "header:X-Api-Key": "k-1" };
    expect(missingSecrets(docs, typed)).toEqual([]);
    const entry = withTyped(docs, typed);
    expect(entry.target.transport === "http" && entry.target.headers).toEqual([
      ["X-Api-Key", "k-1"],
      ["Accept-Language", "en"],
    ]);
  });
});
