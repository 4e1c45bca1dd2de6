//! `periscope skills list|get|read`: the skills a server publishes (SEP-2640), each file read
//! verified against its skill's manifest. A file that fails (digest, size, an unlisted file, a
//! `SKILL.md` whose frontmatter is not its entry's) exits 4 and prints nothing of its content.

use periscope_core::session::{RequestError, Session};
use periscope_core::skills::{
    EntryProblem, FileContent, FrontmatterProblem, LoadRefusal, SKILL_MD, SkillEntry, SkillFileRead,
};
use serde_json::{Value, json};

use crate::args::{Format, SkillsAction};
use crate::exit::Exit;
use crate::output::{self, Output};

pub async fn run(session: &Session, action: &SkillsAction, out: &Output) -> Exit {
    if session.skills_offer().is_none() {
        tell!(
            "periscope: the server does not declare the skills extension ({}): it publishes no skills",
            periscope_core::skills::SKILLS_EXTENSION
        );
        return match action {
            SkillsAction::List => {
                if out.format == Format::Json {
                    say!("[]");
                }
                Exit::Ok
            }
            _ => Exit::Protocol,
        };
    }
    match action {
        SkillsAction::List => list(session, out).await,
        SkillsAction::Get { name } => get(session, name, out).await,
        SkillsAction::Read { uri } => read(session, uri, out).await,
    }
}

async fn list(session: &Session, out: &Output) -> Exit {
    let listing = match session.list_skills().await {
        Ok(listing) => listing,
        Err(e) => return out.result(Err(e), |_| {}),
    };
    if out.format == Format::Json {
        say!("{}", output::pretty(&json!(listing.skills)));
        return Exit::Ok;
    }
    if listing.skills.is_empty() {
        // A listing may be partial or empty by design: that proves nothing (SEP-2640).
        say!("(none listed)");
    }
    for entry in &listing.skills {
        print_entry_line(entry);
    }
    Exit::Ok
}

/// `get NAME`: the entry of the skill called NAME in the listing, or of the `SKILL.md` URI
/// NAME (listed or not: `skills/get`).
async fn get(session: &Session, name: &str, out: &Output) -> Exit {
    let entry = match find(session, name).await {
        Ok(entry) => entry,
        Err(exit) => return exit,
    };
    if out.format == Format::Json {
        say!("{}", output::pretty(&json!(entry)));
        return Exit::Ok;
    }
    print_entry_line(&entry);
    match &entry.resources {
        Some(files) => {
            for file in files {
                let size = file
                    .size
                    .map(|s| format!("{s} bytes  "))
                    .unwrap_or_default();
                say!("    {}  {size}{}", entry.relative(&file.uri), file.digest);
            }
        }
        None => say!("    (no manifest: its files cannot be verified)"),
    }
    say!("  frontmatter:");
    for line in output::pretty(&entry.frontmatter).lines() {
        say!("    {line}");
    }
    Exit::Ok
}

/// `read URI`: one file of a skill, verified. A `SKILL.md` is loaded: verified, and its
/// frontmatter compared with the entry's.
async fn read(session: &Session, uri: &str, out: &Output) -> Exit {
    let entry = match owner(session, uri).await {
        Ok(entry) => entry,
        Err(exit) => return exit,
    };
    if uri == entry.uri {
        let loaded = match session.load_skill(&entry).await {
            Ok(loaded) => loaded,
            Err(e) => return out.result(Err(e), |_| {}),
        };
        if out.format == Format::Json {
            say!("{}", output::pretty(&json!(loaded)));
        }
        return match &loaded.refusal {
            Some(refusal) => {
                tell!("periscope: not loaded: {}", refusal.describe(uri));
                if let (LoadRefusal::FrontmatterDiffers { .. }, Some(frontmatter)) =
                    (refusal, &loaded.frontmatter)
                {
                    for d in &frontmatter.differences {
                        tell!(
                            "  {}: the file says {}, the entry {}",
                            d.field,
                            shown(d.file.as_ref()),
                            shown(d.entry.as_ref())
                        );
                    }
                }
                Exit::Protocol
            }
            None => {
                tell!("periscope: {}", loaded.skill_md.check.describe(uri));
                if let Some(frontmatter) = &loaded.frontmatter {
                    for problem in &frontmatter.problems {
                        tell!("periscope: warning: {}", frontmatter_problem(problem));
                    }
                }
                if out.format == Format::Text {
                    print_content(&loaded.skill_md);
                }
                Exit::Ok
            }
        };
    }
    let read = match session.read_skill_file(&entry, uri).await {
        Ok(read) => read,
        Err(e) => return out.result(Err(e), |_| {}),
    };
    if out.format == Format::Json {
        say!("{}", output::pretty(&json!(read)));
    }
    tell!("periscope: {}", read.check.describe(uri));
    if !read.check.passed() {
        return Exit::Protocol;
    }
    if out.format == Format::Text {
        print_content(&read);
    }
    Exit::Ok
}

fn print_content(read: &SkillFileRead) {
    match &read.content {
        Some(FileContent::Text { text }) => {
            for line in text.lines() {
                say!("{line}");
            }
        }
        Some(FileContent::Binary { .. }) => say!(
            "({} bytes of binary content{}; --format json has it in base64)",
            read.size,
            read.mime_type
                .as_deref()
                .map(|m| format!(", {m}"))
                .unwrap_or_default()
        ),
        None => {}
    }
}

fn shown(value: Option<&Value>) -> String {
    value.map_or_else(|| "nothing".into(), Value::to_string)
}

/// The skill called `name` in the listing (a name two skills share must be given as a URI),
/// or the skill whose `SKILL.md` is `name` (`skills/get`: listed or not).
async fn find(session: &Session, name: &str) -> Result<SkillEntry, Exit> {
    if name.contains("://") {
        return session.get_skill(name).await.map_err(failed);
    }
    let listing = session.list_skills().await.map_err(failed)?;
    let mut named: Vec<SkillEntry> = listing
        .skills
        .into_iter()
        .filter(|s| s.name == name)
        .collect();
    match named.len() {
        1 => Ok(named.remove(0)),
        0 => {
            tell!(
                "periscope: no listed skill is called {name:?} (an unlisted skill can be named by the URI of its {SKILL_MD})"
            );
            Err(Exit::Usage)
        }
        _ => {
            let uris: Vec<&str> = named.iter().map(|s| s.uri.as_str()).collect();
            tell!(
                "periscope: {} skills are called {name:?}; name one by its URI: {}",
                named.len(),
                uris.join(", ")
            );
            Err(Exit::Usage)
        }
    }
}

/// The skill `uri` belongs to: a listed skill whose folder holds it, else the nearest
/// `<folder>/SKILL.md` above it that `skills/get` knows.
async fn owner(session: &Session, uri: &str) -> Result<SkillEntry, Exit> {
    let listing = session.list_skills().await.map_err(failed)?;
    let holder = listing
        .skills
        .into_iter()
        .filter(|s| uri == s.uri || uri.starts_with(&format!("{}/", s.root)))
        .max_by_key(|s| s.root.len());
    if let Some(entry) = holder {
        return Ok(entry);
    }
    let mut candidates = Vec::new();
    if uri.ends_with(&format!("/{SKILL_MD}")) {
        candidates.push(uri.to_string());
    }
    let mut folder = uri;
    while let Some((parent, _)) = folder.rsplit_once('/') {
        if parent.ends_with(':') || parent.ends_with(":/") || candidates.len() >= 16 {
            break;
        }
        candidates.push(format!("{parent}/{SKILL_MD}"));
        folder = parent;
    }
    candidates.dedup();
    for candidate in candidates {
        match session.get_skill(&candidate).await {
            Ok(entry) => return Ok(entry),
            Err(RequestError::Rpc { .. }) => continue,
            Err(e) => return Err(failed(e)),
        }
    }
    tell!("periscope: {uri} is not a file of any skill the server serves");
    Err(Exit::Usage)
}

fn failed(e: RequestError) -> Exit {
    tell!(
        "periscope: {}",
        periscope_core::vocabulary::Problem::from(&e)
    );
    output::exit_for(&e)
}

fn print_entry_line(entry: &SkillEntry) {
    let files = entry
        .resources
        .as_ref()
        .map_or_else(|| "no manifest".to_string(), |f| plural(f.len(), "file"));
    say!(
        "{}  {}  ({files})  {}",
        entry.name,
        entry.description().unwrap_or("(no description)"),
        entry.uri
    );
    for problem in &entry.problems {
        say!("    ! {}", entry_problem(problem));
    }
}

fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

pub fn entry_problem(problem: &EntryProblem) -> String {
    match problem {
        EntryProblem::NotAnObject => "the entry is not an object".into(),
        EntryProblem::NoUri => "no uri".into(),
        EntryProblem::NotSkillMd => format!("its uri does not end in /{SKILL_MD}"),
        EntryProblem::NoFrontmatter => "no frontmatter object".into(),
        EntryProblem::Frontmatter { problem } => frontmatter_problem(problem),
        EntryProblem::NoManifest => {
            "no resources: its files cannot be verified (allowed only for a generated skill)".into()
        }
        EntryProblem::ManifestNotAList => "resources is not a list".into(),
        EntryProblem::BadManifestLine { index } => {
            format!("resources[{index}] has no uri or no digest")
        }
        EntryProblem::BadDigest { uri, digest } => {
            format!("{uri}: digest {digest:?} is not sha256:<64 lowercase hex digits>")
        }
        EntryProblem::FileOutsideSkill { uri } => format!("{uri} is outside the skill's folder"),
        EntryProblem::FileListedTwice { uri } => format!("{uri} is listed twice"),
        EntryProblem::SkillMdNotListed => format!("resources does not list its {SKILL_MD}"),
    }
}

pub fn frontmatter_problem(problem: &FrontmatterProblem) -> String {
    match problem {
        FrontmatterProblem::NameMissing => "frontmatter: no name".into(),
        FrontmatterProblem::NameInvalid { name } => format!(
            "frontmatter: name {name:?} breaks the naming rule (1-64 of a-z, 0-9 and -, no - first, last or twice in a row)"
        ),
        FrontmatterProblem::NameNotFolder { name, folder } => {
            format!("frontmatter: name {name:?} is not its folder's name {folder:?}")
        }
        FrontmatterProblem::DescriptionMissing => "frontmatter: no description".into(),
        FrontmatterProblem::DescriptionTooLong { chars } => {
            format!("frontmatter: the description is {chars} characters, over 1024")
        }
        FrontmatterProblem::CompatibilityTooLong { chars } => {
            format!("frontmatter: compatibility is {chars} characters, over 500")
        }
        FrontmatterProblem::MetadataNotStrings => {
            "frontmatter: metadata is not a map of strings".into()
        }
    }
}
