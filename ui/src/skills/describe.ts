// Words for what the engine found of a skill (SEP-2640), in the current language: a file's
// verification, why a skill was refused, what is wrong with an entry or a frontmatter.
import type { EntryProblem } from "../bindings/EntryProblem";
import type { FileCheck } from "../bindings/FileCheck";
import type { SkillEntry } from "../bindings/SkillEntry";
import type { FrontmatterProblem } from "../bindings/FrontmatterProblem";
import type { LoadRefusal } from "../bindings/LoadRefusal";
import i18n from "../i18n";

/** The skills words in `lng`, or the current language (read at each call: it can change). */
const words = (lng?: string) => i18n.getFixedT(lng ?? null, "skills");

export function describeCheck(check: FileCheck, lng?: string): string {
  const t = words(lng);
  switch (check.kind) {
    case "verified":
      return t("check.verified", { digest: check.digest });
    case "unverifiable":
      return t("check.unverifiable", { digest: check.digest });
    case "size_mismatch":
      return t("check.sizeMismatch", { expected: check.expected, actual: check.actual, digest: check.actual_digest });
    case "digest_mismatch":
      return t("check.digestMismatch", { expected: check.expected, actual: check.actual });
    case "unlisted":
      return t("check.unlisted", { digest: check.actual_digest });
    case "bad_digest":
      return t("check.badDigest", { digest: check.digest, actual: check.actual_digest });
  }
}

export function describeRefusal(refusal: LoadRefusal, lng?: string): string {
  const t = words(lng);
  switch (refusal.kind) {
    case "file_unverified":
      return describeCheck(refusal.check, lng);
    case "not_text":
      return t("refusal.notText");
    case "frontmatter_unreadable":
      return t("refusal.frontmatterUnreadable", { error: refusal.error });
    case "frontmatter_differs":
      return t("refusal.frontmatterDiffers", { fields: refusal.fields.join(", ") });
  }
}

export function describeFrontmatterProblem(problem: FrontmatterProblem): string {
  const t = words();
  switch (problem.kind) {
    case "name_missing":
      return t("frontmatter.nameMissing");
    case "name_invalid":
      return t("frontmatter.nameInvalid", { name: problem.name });
    case "name_not_folder":
      return t("frontmatter.nameNotFolder", { name: problem.name, folder: problem.folder });
    case "description_missing":
      return t("frontmatter.descriptionMissing");
    case "description_too_long":
      return t("frontmatter.descriptionTooLong", { chars: problem.chars });
    case "compatibility_too_long":
      return t("frontmatter.compatibilityTooLong", { chars: problem.chars });
    case "metadata_not_strings":
      return t("frontmatter.metadataNotStrings");
  }
}

export function describeEntryProblem(problem: EntryProblem): string {
  const t = words();
  switch (problem.kind) {
    case "not_an_object":
      return t("entry.notAnObject");
    case "no_uri":
      return t("entry.noUri");
    case "not_skill_md":
      return t("entry.notSkillMd");
    case "no_frontmatter":
      return t("entry.noFrontmatter");
    case "frontmatter":
      return describeFrontmatterProblem(problem.problem);
    case "no_manifest":
      return t("entry.noManifest");
    case "manifest_not_a_list":
      return t("entry.manifestNotAList");
    case "bad_manifest_line":
      return t("entry.badManifestLine", { index: problem.index });
    case "bad_digest":
      return t("entry.badDigest", { uri: problem.uri, digest: problem.digest });
    case "file_outside_skill":
      return t("entry.fileOutsideSkill", { uri: problem.uri });
    case "file_listed_twice":
      return t("entry.fileListedTwice", { uri: problem.uri });
    case "skill_md_not_listed":
      return t("entry.skillMdNotListed");
  }
}

/** The description the entry's frontmatter gives, when it is a string. */
export function descriptionOf(entry: SkillEntry): string | null {
  const fm = entry.frontmatter;
  if (fm !== null && typeof fm === "object" && !Array.isArray(fm)) {
    const d = (fm as Record<string, unknown>).description;
    if (typeof d === "string") return d;
  }
  return null;
}
