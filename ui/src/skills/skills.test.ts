import { describe, expect, it } from "vitest";
import type { SkillEntry } from "../bindings/SkillEntry";
import i18n from "../i18n";
import { allSkills, serverSkills, sharedNames, skillMark, type ServerSkills } from "../state/skills";
import { describeCheck, describeRefusal } from "./describe";

const entry = (uri: string, name: string): SkillEntry => ({
  uri,
  name,
  root: uri.replace(/\/SKILL\.md$/, ""),
  frontmatter: { name, description: "d" },
  resources: [],
  problems: [],
});

const withView = (skills: SkillEntry[], changed: string[], added: string[], extra: SkillEntry[] = []): ServerSkills => ({
  ...serverSkills("nobody"),
  view: { offer: { directory_read: false }, listing: { skills, cache: null }, changed, added },
  extra,
});

describe("the Skills view's state", () => {
  it("marks a changed skill and a new one, and nothing else", () => {
    const s = withView([entry("skill://a/SKILL.md", "a"), entry("skill://b/SKILL.md", "b")], ["skill://a/SKILL.md"], ["skill://b/SKILL.md"]);
    expect(skillMark(s, "skill://a/SKILL.md")).toBe("changed");
    expect(skillMark(s, "skill://b/SKILL.md")).toBe("added");
    expect(skillMark(s, "skill://c/SKILL.md")).toBeNull();
  });

  it("adds skills named by URI after the listing, once", () => {
    const listed = entry("skill://a/SKILL.md", "a");
    const s = withView([listed], [], [], [listed, entry("skill://x/y/SKILL.md", "y")]);
    expect(allSkills(s).map((e) => e.uri)).toEqual(["skill://a/SKILL.md", "skill://x/y/SKILL.md"]);
  });

  it("finds the names two skills share (they are labels, not identifiers)", () => {
    const shared = sharedNames([
      entry("skill://acme/billing/refunds/SKILL.md", "refunds"),
      entry("skill://acme/support/refunds/SKILL.md", "refunds"),
      entry("skill://git/SKILL.md", "git"),
    ]);
    expect([...shared]).toEqual(["refunds"]);
  });
});

describe("the words for a skill's verification", () => {
  it("names both digests of a mismatch, in English and in Chinese", () => {
    const check = { kind: "digest_mismatch", expected: "sha256:aa", actual: "sha256:bb" } as const;
    expect(describeCheck(check)).toBe("Digest mismatch: the manifest says sha256:aa, the server sent sha256:bb");
    const zh = describeCheck(check, "zh-Hans");
    expect(zh).toContain("sha256:aa");
    expect(zh).toContain("sha256:bb");
    expect(zh).not.toContain("manifest");
  });

  it("says which frontmatter fields differ", () => {
    expect(describeRefusal({ kind: "frontmatter_differs", fields: ["description", "license"] })).toBe(
      "the frontmatter differs from the skill's entry in description, license",
    );
    expect(i18n.language).toBe("en");
  });
});
