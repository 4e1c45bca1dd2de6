import { describe, expect, it } from "vitest";
import { duplicateName } from "../actions";
import { entryFromForm, formFromEntry, parseArgs, parseEnv } from "./serverForm";

describe("server form", () => {
  it("reads one argument per line, keeping spaces inside arguments", () => {
    expect(parseArgs("-y\r\n@modelcontextprotocol/server-everything\n\n  two words \n")).toEqual([
      "-y",
      "@modelcontextprotocol/server-everything",
      "  two words ",
    ]);
  });

  it("reads KEY=VALUE lines; the value may contain = or be empty", () => {
    expect(parseEnv("API_KEY=a=b\nEMPTY=\n\n")).toEqual({
      env: [
        ["API_KEY", "a=b"],
        ["EMPTY", ""],
      ],
      errors: [],
    });
    expect(parseEnv("NOPE\n=x").errors).toEqual([
      'Environment line 1 is not KEY=VALUE: "NOPE"',
      'Environment line 2 is not KEY=VALUE: "=x"',
    ]);
  });

  it("builds an entry, or says what is missing", () => {
    expect(entryFromForm({ name: " ", command: "", args: "", env: "", cwd: "" }, "id").errors).toEqual([
      "Give the server a name.",
      "Give the command that starts the server.",
    ]);
    const { entry } = entryFromForm(
      { name: "Demo", command: "periscope-demo-server", args: "--flag", env: "A=1", cwd: " /tmp " },
      "id-1",
    );
    expect(entry).toEqual({
      id: "id-1",
      name: "Demo",
      target: { command: "periscope-demo-server", args: ["--flag"], env: [["A", "1"]], cwd: "/tmp" },
    });
    expect(formFromEntry(entry!)).toEqual({
      name: "Demo",
      command: "periscope-demo-server",
      args: "--flag",
      env: "A=1",
      cwd: "/tmp",
    });
  });

  it("names duplicates so they can be told apart", () => {
    expect(duplicateName("Demo", ["Demo"])).toBe("Demo (copy)");
    expect(duplicateName("Demo", ["Demo", "Demo (copy)"])).toBe("Demo (copy 2)");
    expect(duplicateName("Demo (copy)", ["Demo", "Demo (copy)"])).toBe("Demo (copy 2)");
  });
});
