//! A skill file's bytes against its manifest line: the SHA-256 digest (`sha256:` and 64
//! lowercase hex digits) and, where the server gave it, the size.

use sha2::{Digest, Sha256};

use super::SkillFile;
use crate::vocabulary::skill_check::FileCheck;

/// `sha256:{hex}` of `bytes`, the form manifests use.
pub fn digest_of(bytes: &[u8]) -> String {
    let hash = Sha256::digest(bytes);
    let mut out = String::with_capacity(7 + 64);
    out.push_str("sha256:");
    for byte in hash {
        out.push_str(&format!("{byte:02x}"));
    }
    out
}

/// True for `sha256:` followed by 64 lowercase hex digits.
pub(super) fn well_formed(digest: &str) -> bool {
    digest.strip_prefix("sha256:").is_some_and(|hex| {
        hex.len() == 64 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    })
}

/// Checks `bytes` read from `uri` against the skill's manifest (`None`: the entry has none).
pub(super) fn check(manifest: Option<&[SkillFile]>, uri: &str, bytes: &[u8]) -> FileCheck {
    let actual = digest_of(bytes);
    let Some(manifest) = manifest else {
        return FileCheck::Unverifiable { digest: actual };
    };
    let Some(line) = manifest.iter().find(|f| f.uri == uri) else {
        return FileCheck::Unlisted {
            actual_digest: actual,
        };
    };
    // The size first: a length that lies is a failure whether or not the digest is computed.
    if let Some(expected) = line.size
        && expected != bytes.len() as u64
    {
        return FileCheck::SizeMismatch {
            expected,
            actual: bytes.len() as u64,
            actual_digest: actual,
        };
    }
    if !well_formed(&line.digest) {
        return FileCheck::BadDigest {
            digest: line.digest.clone(),
            actual_digest: actual,
        };
    }
    if line.digest != actual {
        return FileCheck::DigestMismatch {
            expected: line.digest.clone(),
            actual,
        };
    }
    FileCheck::Verified { digest: actual }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(uri: &str, bytes: &[u8]) -> SkillFile {
        SkillFile {
            uri: uri.into(),
            digest: digest_of(bytes),
            size: Some(bytes.len() as u64),
        }
    }

    #[test]
    fn the_digest_is_sha256_in_lowercase_hex() {
        // The SHA-256 of "abc" (FIPS 180-2's example).
        assert_eq!(
            digest_of(b"abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert!(well_formed(&digest_of(b"")));
        assert!(!well_formed("sha256:BA7816BF"));
        assert!(!well_formed("md5:900150983cd24fb0d6963f7d28e17f72"));
    }

    #[test]
    fn a_file_is_verified_only_when_size_and_digest_match() {
        let manifest = [file("skill://a/SKILL.md", b"hello")];
        assert!(check(Some(&manifest), "skill://a/SKILL.md", b"hello").passed());
        assert!(matches!(
            check(Some(&manifest), "skill://a/SKILL.md", b"jello"),
            FileCheck::DigestMismatch { .. }
        ));
        assert!(matches!(
            check(Some(&manifest), "skill://a/SKILL.md", b"hello!"),
            FileCheck::SizeMismatch {
                expected: 5,
                actual: 6,
                ..
            }
        ));
        assert!(matches!(
            check(Some(&manifest), "skill://a/other.md", b"hello"),
            FileCheck::Unlisted { .. }
        ));
        let bad = [SkillFile {
            uri: "skill://a/SKILL.md".into(),
            digest: "sha256:nothex".into(),
            size: None,
        }];
        assert!(matches!(
            check(Some(&bad), "skill://a/SKILL.md", b"hello"),
            FileCheck::BadDigest { .. }
        ));
        let check = check(None, "skill://a/SKILL.md", b"hello");
        assert!(check.passed() && matches!(check, FileCheck::Unverifiable { .. }));
    }

    #[test]
    fn a_mismatch_names_the_file_and_both_digests() {
        let manifest = [file("skill://a/SKILL.md", b"hello")];
        let found = check(Some(&manifest), "skill://a/SKILL.md", b"jello");
        let text = found.describe("skill://a/SKILL.md");
        assert!(text.contains("skill://a/SKILL.md"), "{text}");
        assert!(text.contains(&digest_of(b"hello")), "{text}");
        assert!(text.contains(&digest_of(b"jello")), "{text}");
    }
}
