//! `periscope skills list|get|read` through the real CLI, against the demo server (two honest
//! skills) and `skills-fixture` (an honest skill, a tampered, a padded and one whose
//! frontmatter is broken): the listing and the entries as the server gave them; every file
//! read verified against its manifest (the digest of what is printed is the manifest's); a
//! file that fails exits 4, names the file and both digests, and prints nothing of its
//! content, while the record keeps the raw frame, flagged; a listing fetches no file; a
//! server without the extension is said to have none.

use std::path::Path;
use std::process::Output;

use periscope_tests::{
    bin_str, names, ok_json, periscope, scratch_dir, stderr, stdout, stdout_of_success,
};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

fn demo() -> String {
    bin_str("periscope-demo-server")
}

fn fixture() -> String {
    bin_str("skills-fixture")
}

/// `periscope ARGS -- SERVER`.
fn run(args: &[&str], server: &str) -> Output {
    let mut all = args.to_vec();
    all.extend(["--", server]);
    periscope(&all)
}

/// `periscope --format json ARGS -- SERVER`, which must exit 0, as JSON.
fn json_of(args: &[&str], server: &str) -> Value {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    ok_json(&run(&all, server))
}

/// `sha256:` and the 64 lowercase hex digits of `bytes`' SHA-256, computed here.
fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .fold(String::from("sha256:"), |mut hex, byte| {
            hex.push_str(&format!("{byte:02x}"));
            hex
        })
}

/// The manifest line of `uri` in a skill entry (`skills get --format json`).
fn manifest_line<'a>(entry: &'a Value, uri: &str) -> &'a Value {
    entry["resources"]
        .as_array()
        .expect("the entry has a manifest")
        .iter()
        .find(|file| file["uri"] == uri)
        .unwrap_or_else(|| panic!("{uri} is not in the manifest: {entry}"))
}

/// Every line of a record file, as JSON.
fn record_lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .expect("the record was written")
        .lines()
        .map(|line| serde_json::from_str(line).expect("a record line is JSON"))
        .collect()
}

/// The methods of the requests Periscope sent, in a record.
fn sent_methods(lines: &[Value]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| l["type"] == "frame" && l["direction"] == "out")
        .filter(|l| l["verdict"]["kind"] == "request")
        .filter_map(|l| l["verdict"]["method"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn the_demo_lists_its_two_skills_with_their_manifests() {
    let out = run(&["skills", "list"], &demo());
    let text = stdout_of_success(&out);
    assert_eq!(
        text.lines().collect::<Vec<_>>(),
        [
            "release-notes  Write release notes for a version of the demo server from its changelog  (1 file)  skill://release-notes/SKILL.md",
            "arithmetic  Add numbers with the demo server's add tool and show the working  (3 files)  skill://arithmetic/SKILL.md",
        ],
        "{text}"
    );

    let list = json_of(&["skills", "list"], &demo());
    assert_eq!(names(&list), ["release-notes", "arithmetic"]);
    let arithmetic = &list[1];
    assert_eq!(arithmetic["uri"], "skill://arithmetic/SKILL.md");
    assert_eq!(arithmetic["root"], "skill://arithmetic");
    assert_eq!(
        arithmetic["frontmatter"],
        json!({
            "name": "arithmetic",
            "description": "Add numbers with the demo server's add tool and show the working",
            "metadata": {"version": "1.0"},
        })
    );
    let files = arithmetic["resources"].as_array().unwrap();
    let uris: Vec<&str> = files.iter().map(|f| f["uri"].as_str().unwrap()).collect();
    assert_eq!(
        uris,
        [
            "skill://arithmetic/SKILL.md",
            "skill://arithmetic/references/OPERATIONS.md",
            "skill://arithmetic/templates/receipt.md",
        ]
    );
    for file in files {
        let digest = file["digest"].as_str().unwrap();
        assert_eq!(digest.len(), 71, "{file}");
        let hex = digest.strip_prefix("sha256:").expect("a sha256: digest");
        assert!(
            hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')),
            "{file}"
        );
        assert!(file["size"].as_u64().unwrap() > 0, "{file}");
    }
    let release_notes = &list[0];
    assert_eq!(release_notes["resources"].as_array().unwrap().len(), 1);
    assert_eq!(release_notes["frontmatter"]["license"], "MIT");
    for entry in list.as_array().unwrap() {
        assert_eq!(entry["problems"], json!([]), "{entry}");
    }
}

#[test]
fn get_gives_one_entry_by_name_or_uri() {
    let listed = json_of(&["skills", "list"], &demo());
    let entry = json_of(&["skills", "get", "arithmetic"], &demo());
    assert_eq!(entry, listed[1], "get gives the listed entry");

    // Text: the entry's line, each file by its path inside the skill, the frontmatter.
    let text = stdout_of_success(&run(&["skills", "get", "arithmetic"], &demo()));
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("arithmetic  ") && lines[0].contains("(3 files)"),
        "{text}"
    );
    for (i, relative) in [
        "SKILL.md",
        "references/OPERATIONS.md",
        "templates/receipt.md",
    ]
    .into_iter()
    .enumerate()
    {
        let file = &entry["resources"][i];
        assert_eq!(
            lines[1 + i],
            format!(
                "    {relative}  {} bytes  {}",
                file["size"],
                file["digest"].as_str().unwrap()
            ),
            "{text}"
        );
    }
    assert_eq!(lines[4], "  frontmatter:", "{text}");
    assert!(text.contains(r#"      "name": "arithmetic","#), "{text}");
    assert!(text.contains(r#"        "version": "1.0""#), "{text}");

    // By the URI of its SKILL.md (skills/get).
    let by_uri = run(
        &["skills", "get", "skill://release-notes/SKILL.md"],
        &demo(),
    );
    let text = stdout_of_success(&by_uri);
    assert!(
        text.starts_with("release-notes  Write release notes") && text.contains("(1 file)"),
        "{text}"
    );
    assert!(text.contains("    SKILL.md  "), "{text}");
    assert!(text.contains(r#""license": "MIT""#), "{text}");
    let by_uri = json_of(
        &["skills", "get", "skill://release-notes/SKILL.md"],
        &demo(),
    );
    assert_eq!(by_uri, listed[0]);

    // A name nobody lists: a usage error.
    let out = run(&["skills", "get", "nope"], &demo());
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(r#"no listed skill is called "nope""#),
        "{}",
        stderr(&out)
    );
    assert_eq!(stdout(&out), "");

    // A URI the server knows nothing of: it answers -32602, a protocol failure.
    let out = run(&["skills", "get", "skill://nope/SKILL.md"], &demo());
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("skills/get")
            && err.contains("-32602")
            && err.contains("skill://nope/SKILL.md"),
        "{err}"
    );
    assert_eq!(stdout(&out), "");
}

#[test]
fn read_prints_exactly_the_verified_bytes() {
    let entry = json_of(&["skills", "get", "arithmetic"], &demo());

    let out = run(&["skills", "read", "skill://arithmetic/SKILL.md"], &demo());
    let text = stdout_of_success(&out);
    assert!(text.starts_with("---\nname: arithmetic\n"), "{text}");
    assert!(text.contains("\n---\n\n# Arithmetic\n"), "{text}");
    assert!(
        text.contains("and its structured result is `{ \"sum\": 5 }`."),
        "{text}"
    );
    let skill_md = manifest_line(&entry, "skill://arithmetic/SKILL.md");
    assert!(
        stderr(&out).contains(&format!(
            "skill://arithmetic/SKILL.md: {} verified",
            skill_md["digest"].as_str().unwrap()
        )),
        "{}",
        stderr(&out)
    );

    // Every file of the skill: what is printed hashes to the manifest's digest, computed here.
    for file in entry["resources"].as_array().unwrap() {
        let uri = file["uri"].as_str().unwrap();
        let out = run(&["skills", "read", uri], &demo());
        assert_eq!(out.status.code(), Some(0), "{uri}: {}", stderr(&out));
        assert_eq!(sha256(&out.stdout), file["digest"], "{uri}");
        assert_eq!(
            Some(out.stdout.len() as u64),
            file["size"].as_u64(),
            "{uri}"
        );
        assert!(stderr(&out).contains("verified"), "{}", stderr(&out));
    }

    let out = run(
        &[
            "skills",
            "read",
            "skill://arithmetic/references/OPERATIONS.md",
        ],
        &demo(),
    );
    assert!(
        stdout_of_success(&out).starts_with(
            "# Operations\n\nThe demo server has one arithmetic operation, the `add` tool."
        ),
        "{}",
        stdout(&out)
    );

    let operations = manifest_line(&entry, "skill://arithmetic/references/OPERATIONS.md");
    let read = json_of(
        &[
            "skills",
            "read",
            "skill://arithmetic/references/OPERATIONS.md",
        ],
        &demo(),
    );
    assert_eq!(read["path"], "references/OPERATIONS.md");
    assert_eq!(read["mime_type"], "text/markdown");
    assert_eq!(read["size"], operations["size"]);
    assert_eq!(
        read["check"],
        json!({"kind": "verified", "digest": operations["digest"]})
    );
    assert_eq!(read["content"]["kind"], "text");
    assert_eq!(
        sha256(read["content"]["text"].as_str().unwrap().as_bytes()),
        operations["digest"]
    );

    // A SKILL.md in JSON: the loaded skill, nothing refused.
    let loaded = json_of(&["skills", "read", "skill://arithmetic/SKILL.md"], &demo());
    assert_eq!(loaded["refusal"], Value::Null, "{loaded}");
    assert_eq!(loaded["skill_md"]["check"]["kind"], "verified");
    assert_eq!(loaded["skill_md"]["content"]["kind"], "text");
    assert_eq!(loaded["entry"], entry);
}

#[test]
fn a_file_that_is_not_what_its_manifest_says_is_withheld() {
    let server = fixture();

    // The control: the honest skill and its supporting file.
    let honest = json_of(&["skills", "get", "honest"], &server);
    let out = run(&["skills", "read", "skill://honest/SKILL.md"], &server);
    let text = stdout_of_success(&out);
    assert!(
        text.starts_with("---\nname: honest\n") && text.contains("Skill body."),
        "{text}"
    );
    assert_eq!(
        sha256(&out.stdout),
        manifest_line(&honest, "skill://honest/SKILL.md")["digest"]
    );
    assert!(stderr(&out).contains("verified"), "{}", stderr(&out));
    let out = run(
        &["skills", "read", "skill://honest/references/NOTES.md"],
        &server,
    );
    assert_eq!(
        stdout_of_success(&out),
        "# Notes\n\nA supporting file, served as listed.\n"
    );

    // Tampered: same length, another digest.
    let tampered = json_of(&["skills", "get", "tampered"], &server);
    let listed_digest = manifest_line(&tampered, "skill://tampered/SKILL.md")["digest"]
        .as_str()
        .unwrap()
        .to_string();
    let refused = json_of_refusal(
        &["skills", "read", "skill://tampered/SKILL.md"],
        &server,
        "Evil",
    );
    assert_eq!(refused["refusal"]["kind"], "file_unverified", "{refused}");
    assert_eq!(refused["refusal"]["check"]["kind"], "digest_mismatch");
    assert_eq!(
        refused["refusal"]["check"]["expected"],
        listed_digest.as_str()
    );
    let served_digest = refused["refusal"]["check"]["actual"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(served_digest.len(), 71);
    assert_ne!(served_digest, listed_digest);
    assert_eq!(refused["skill_md"]["content"], Value::Null);
    assert_eq!(refused["frontmatter"], Value::Null);

    let out = run(&["skills", "read", "skill://tampered/SKILL.md"], &server);
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "skill://tampered/SKILL.md: digest mismatch: the manifest says {listed_digest}, the server sent {served_digest}"
        )),
        "{err}"
    );
    assert_eq!(stdout(&out), "", "nothing of the content is printed");
    assert!(!err.contains("Evil"), "nor told on stderr: {err}");
    // Its supporting file is as listed, and reads.
    let out = run(
        &["skills", "read", "skill://tampered/references/NOTES.md"],
        &server,
    );
    assert!(stdout_of_success(&out).starts_with("# Notes\n"));

    // Padded: the size lies first.
    let padded = json_of(&["skills", "get", "padded"], &server);
    let listed_size = manifest_line(&padded, "skill://padded/SKILL.md")["size"]
        .as_u64()
        .unwrap();
    let out = run(&["skills", "read", "skill://padded/SKILL.md"], &server);
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "skill://padded/SKILL.md: size mismatch: the manifest says {listed_size} bytes, the server sent"
        )),
        "{err}"
    );
    assert_eq!(stdout(&out), "");
    let refused = json_of_refusal(
        &["skills", "read", "skill://padded/SKILL.md"],
        &server,
        "appended",
    );
    assert_eq!(refused["refusal"]["check"]["kind"], "size_mismatch");
    assert!(refused["refusal"]["check"]["actual"].as_u64().unwrap() > listed_size);

    // Broken frontmatter: the bytes verify, the YAML does not read.
    let out = run(
        &["skills", "read", "skill://broken-frontmatter/SKILL.md"],
        &server,
    );
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert!(
        stderr(&out)
            .contains("skill://broken-frontmatter/SKILL.md: the frontmatter cannot be read"),
        "{}",
        stderr(&out)
    );
    assert_eq!(stdout(&out), "");
    let refused = json_of_refusal(
        &["skills", "read", "skill://broken-frontmatter/SKILL.md"],
        &server,
        r#""kind": "text""#,
    );
    assert_eq!(refused["refusal"]["kind"], "frontmatter_unreadable");
    assert_eq!(refused["skill_md"]["check"]["kind"], "verified");
    assert_eq!(refused["skill_md"]["content"], Value::Null);
}

/// `periscope --format json ARGS -- SERVER`, which must exit 4 (a refusal), as JSON; what it
/// prints must not hold `absent` (text only the server's changed bytes have).
fn json_of_refusal(args: &[&str], server: &str, absent: &str) -> Value {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    let out = run(&all, server);
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert!(!stdout(&out).contains(absent), "{absent}: {}", stdout(&out));
    serde_json::from_slice(&out.stdout).expect("--format json prints JSON")
}

#[test]
fn the_record_keeps_the_refused_frame_flagged() {
    let dir = scratch_dir("skills-record");
    let record = dir.join("tampered.jsonl");
    let out = run(
        &[
            "--record",
            record.to_str().unwrap(),
            "skills",
            "read",
            "skill://tampered/SKILL.md",
        ],
        &fixture(),
    );
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");

    let lines = record_lines(&record);
    assert_eq!(lines[0]["type"], "session");
    assert!(sent_methods(&lines).contains(&"resources/read".to_string()));
    let flag = lines
        .iter()
        .find(|l| l["type"] == "flag" && l["flag"]["kind"] == "skill_refused")
        .expect("the refusal is flagged in the record");
    assert_eq!(flag["flag"]["uri"], "skill://tampered/SKILL.md");
    assert_eq!(flag["flag"]["refusal"]["kind"], "file_unverified");
    assert_eq!(flag["flag"]["refusal"]["check"]["kind"], "digest_mismatch");

    // Raw first: the flagged frame is the server's response, kept as it came, body and all.
    let frame = lines
        .iter()
        .find(|l| l["type"] == "frame" && l["seq"] == flag["seq"])
        .expect("the flagged frame is in the record");
    assert_eq!(frame["direction"], "in");
    let bytes = frame["bytes"]["text"].as_str().unwrap();
    let sent: Value = serde_json::from_str(bytes).unwrap();
    let served = sent["result"]["contents"][0]["text"].as_str().unwrap();
    assert!(served.contains("Evil body!!"), "{served}");
    assert_eq!(
        sha256(served.as_bytes()),
        flag["flag"]["refusal"]["check"]["actual"],
        "the flag's actual digest is of the bytes the frame holds"
    );
}

#[test]
fn listing_and_getting_fetch_no_skill_file() {
    let dir = scratch_dir("skills-no-prefetch");
    for (file, args) in [
        ("list.jsonl", &["skills", "list"][..]),
        ("get.jsonl", &["skills", "get", "arithmetic"][..]),
    ] {
        let record = dir.join(file);
        let mut all = vec!["--record", record.to_str().unwrap()];
        all.extend_from_slice(args);
        let out = run(&all, &demo());
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

        let lines = record_lines(&record);
        let methods = sent_methods(&lines);
        assert!(methods.contains(&"skills/list".to_string()), "{methods:?}");
        assert!(
            !methods
                .iter()
                .any(|m| m == "resources/read" || m == "resources/directory/read"),
            "{args:?} fetched a file: {methods:?}"
        );
        for line in &lines {
            let text = line["bytes"]["text"].as_str().unwrap_or_default();
            assert!(
                !text.contains(r#""method":"resources/read""#),
                "{args:?}: {line}"
            );
        }
    }
}

#[test]
fn a_server_without_the_extension_has_no_skills() {
    let canned = bin_str("canned-server");
    let out = run(&["skills", "list"], &canned);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "the server does not declare the skills extension (io.modelcontextprotocol/skills)"
        ),
        "{}",
        stderr(&out)
    );
    assert_eq!(stdout(&out), "");

    let list = json_of(&["skills", "list"], &canned);
    assert_eq!(list, json!([]));

    // Asking for one skill of it is a protocol failure.
    let out = run(&["skills", "get", "anything"], &canned);
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
}
