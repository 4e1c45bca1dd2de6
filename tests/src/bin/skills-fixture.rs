//! A stdio MCP server (legacy era, `initialize`) serving Agent Skills (SEP-2640, extension
//! `io.modelcontextprotocol/skills`, without `directoryRead`) that do not all hold what their
//! listing promises. The fixture of a host's skill checks: the digest and size of every file
//! against the bytes `resources/read` serves, and the served `SKILL.md`'s frontmatter.
//!
//! `skills/list` (and `skills/get`) give four skills, each with its `SKILL.md`:
//!
//! - `skill://honest/SKILL.md`: the control, everything right; with
//!   `skill://honest/references/NOTES.md`.
//! - `skill://tampered/SKILL.md`: the listing's digest is of the original text, but the
//!   served body says "Evil body!!" where it said "Skill body." (same length, so only the
//!   digest differs). Its `skill://tampered/references/NOTES.md` is right.
//! - `skill://padded/SKILL.md`: the listing's size and digest are of the original text, but
//!   the served body has bytes appended (the size lies first).
//! - `skill://broken-frontmatter/SKILL.md`: digest and size match what is served, but the
//!   served frontmatter is not valid YAML (`description: [unclosed`), while the listing's
//!   `frontmatter` has a proper name and description.
//!
//! `initialize` echoes 2025-06-18 or 2025-11-25 (anything else gets 2025-11-25) and declares
//! `resources` and the skills extension; `server/discover` is -32601 (method not found), so a
//! client of both eras falls back to `initialize`. `ping` gets `{}`, `resources/list` and
//! `resources/templates/list` empty lists (the skill files are found through the skills
//! methods), an unknown skill or resource -32602, any other method -32601; notifications and
//! responses are ignored. Input lines over 1 MiB are skipped. Usage: `skills-fixture`.

use std::io::{BufRead, Read, Write};

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

const SKILLS_EXTENSION: &str = "io.modelcontextprotocol/skills";
/// The versions `initialize` echoes; anything else gets 2025-11-25.
const VERSIONS: [&str; 2] = ["2025-06-18", "2025-11-25"];
/// The longest input line read; a longer one is skipped.
const MAX_LINE: u64 = 1 << 20;

/// One file of a skill: what the listing describes and what `resources/read` serves.
struct File {
    uri: String,
    listed: String,
    served: String,
}

struct Skill {
    name: &'static str,
    description: &'static str,
    files: Vec<File>,
}

impl Skill {
    fn uri(&self) -> String {
        format!("skill://{}/SKILL.md", self.name)
    }

    /// The `skills/list` / `skills/get` entry: digests and sizes of the listed text.
    fn entry(&self) -> Value {
        let resources: Vec<Value> = self
            .files
            .iter()
            .map(|file| {
                json!({
                    "uri": file.uri,
                    "digest": digest(file.listed.as_bytes()),
                    "size": file.listed.len(),
                })
            })
            .collect();
        json!({
            "uri": self.uri(),
            "frontmatter": { "name": self.name, "description": self.description },
            "resources": resources,
        })
    }
}

fn skill_md(name: &str, description: &str, body: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\n{body}\n")
}

/// A file served as listed.
fn honest_file(uri: String, text: String) -> File {
    File {
        uri,
        listed: text.clone(),
        served: text,
    }
}

fn notes(skill: &str) -> File {
    honest_file(
        format!("skill://{skill}/references/NOTES.md"),
        "# Notes\n\nA supporting file, served as listed.\n".to_string(),
    )
}

fn skills() -> Vec<Skill> {
    const BODY: &str = "Skill body. Read references/NOTES.md before you start.";

    let honest_description = "The control skill, every digest and size right";
    let honest = skill_md("honest", honest_description, BODY);

    let tampered_description = "A skill whose SKILL.md is changed after it was listed";
    let tampered = skill_md("tampered", tampered_description, BODY);
    let evil = tampered.replace("Skill body.", "Evil body!!");
    debug_assert_eq!(evil.len(), tampered.len());

    let padded_description = "A skill whose SKILL.md is longer than listed";
    let padded = skill_md("padded", padded_description, "Skill body.");
    let longer = format!("{padded}\nThese lines were appended after the listing.\n");

    let broken_description = "A skill whose SKILL.md frontmatter is not valid YAML";
    let broken = "---\nname: broken-frontmatter\ndescription: [unclosed\n---\n\n\
                  # broken-frontmatter\n\nSkill body.\n"
        .to_string();

    vec![
        Skill {
            name: "honest",
            description: honest_description,
            files: vec![
                honest_file("skill://honest/SKILL.md".into(), honest),
                notes("honest"),
            ],
        },
        Skill {
            name: "tampered",
            description: tampered_description,
            files: vec![
                File {
                    uri: "skill://tampered/SKILL.md".into(),
                    listed: tampered,
                    served: evil,
                },
                notes("tampered"),
            ],
        },
        Skill {
            name: "padded",
            description: padded_description,
            files: vec![File {
                uri: "skill://padded/SKILL.md".into(),
                listed: padded,
                served: longer,
            }],
        },
        Skill {
            name: "broken-frontmatter",
            description: broken_description,
            files: vec![honest_file(
                "skill://broken-frontmatter/SKILL.md".into(),
                broken,
            )],
        },
    ]
}

/// `sha256:` and the 64 lowercase hex digits of `bytes`' SHA-256.
fn digest(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .fold(String::from("sha256:"), |mut hex, byte| {
            hex.push_str(&format!("{byte:02x}"));
            hex
        })
}

/// The next line of `input` (with its newline, if any), `Some(None)` for a line over
/// [`MAX_LINE`] (skipped, in bounded reads), `None` at the end of input or on an error.
fn next_line(input: &mut impl BufRead) -> Option<Option<Vec<u8>>> {
    let mut line = Vec::new();
    let read = input
        .by_ref()
        .take(MAX_LINE)
        .read_until(b'\n', &mut line)
        .ok()?;
    if read == 0 {
        return None;
    }
    if line.ends_with(b"\n") || (read as u64) < MAX_LINE {
        return Some(Some(line));
    }
    loop {
        line.clear();
        let read = input
            .by_ref()
            .take(MAX_LINE)
            .read_until(b'\n', &mut line)
            .ok()?;
        if read == 0 || line.ends_with(b"\n") {
            return Some(None);
        }
    }
}

fn invalid_params(message: String) -> Value {
    json!({"error": {"code": -32602, "message": message}})
}

/// The reply (`{"result"}` or `{"error"}`) to request `method` with `params`.
fn answer(skills: &[Skill], method: &str, params: &Value) -> Value {
    match method {
        "initialize" => {
            let version = params["protocolVersion"]
                .as_str()
                .filter(|version| VERSIONS.contains(version))
                .unwrap_or("2025-11-25");
            json!({"result": {
                "protocolVersion": version,
                "capabilities": {"resources": {}, "extensions": {SKILLS_EXTENSION: {}}},
                "serverInfo": {"name": "skills-fixture", "version": "1.0.0"},
            }})
        }
        "ping" => json!({"result": {}}),
        "resources/list" => json!({"result": {"resources": []}}),
        "resources/templates/list" => json!({"result": {"resourceTemplates": []}}),
        "skills/list" => match params.get("cursor") {
            Some(cursor) => invalid_params(format!("invalid cursor: {cursor}")),
            None => {
                let entries: Vec<Value> = skills.iter().map(Skill::entry).collect();
                json!({"result": {"skills": entries}})
            }
        },
        "skills/get" => {
            let uri = params["uri"].as_str().unwrap_or_default();
            match skills.iter().find(|skill| skill.uri() == uri) {
                Some(skill) => json!({"result": {"skill": skill.entry()}}),
                None => invalid_params(format!("no skill at {uri:?}")),
            }
        }
        "resources/read" => {
            let uri = params["uri"].as_str().unwrap_or_default();
            let file = skills
                .iter()
                .flat_map(|skill| &skill.files)
                .find(|file| file.uri == uri);
            match file {
                Some(file) => json!({"result": {"contents": [{
                    "uri": file.uri,
                    "mimeType": "text/markdown",
                    "text": file.served,
                }]}}),
                None => invalid_params(format!("no resource at {uri:?}")),
            }
        }
        // server/discover included: a legacy server does not know it.
        _ => json!({"error": {"code": -32601, "message": format!("method not found: {method}")}}),
    }
}

fn main() {
    let skills = skills();
    let mut input = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    while let Some(line) = next_line(&mut input) {
        let Some(line) = line else { continue };
        let Ok(message) = serde_json::from_slice::<Value>(&line) else {
            continue;
        };
        // Notifications have no id, responses no method: nothing to answer.
        let (Some(id), Some(method)) = (
            message.get("id"),
            message.get("method").and_then(Value::as_str),
        ) else {
            continue;
        };
        let params = message.get("params").cloned().unwrap_or(Value::Null);
        let mut frame = json!({"jsonrpc": "2.0", "id": id});
        if let (Some(frame), Value::Object(reply)) =
            (frame.as_object_mut(), answer(&skills, method, &params))
        {
            frame.extend(reply);
        }
        if writeln!(out, "{frame}").and_then(|()| out.flush()).is_err() {
            break;
        }
    }
}
