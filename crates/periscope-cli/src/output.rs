//! Printing results as text for people or JSON for scripts, and mapping errors to exit codes.

use periscope_core::doctor::{self, Diagnosis, Scene};
use periscope_core::event::Progress;
use periscope_core::record::{Cut, Flag, GaveUp};
use periscope_core::session::{RequestError, ServerIdentity};
use periscope_core::transport::SendError;
use periscope_core::vocabulary::Problem;
use serde_json::Value;

use periscope_core::hidden_text;

use crate::args::Format;
use crate::exit::Exit;
use crate::terminal;

pub struct Output {
    pub format: Format,
    /// The server and what it said of itself: what the doctor reads a failure against.
    pub scene: Option<Scene>,
    /// `--full`: lists print each item whole ([`full_item`]), not one line of it.
    pub full: bool,
}

impl Output {
    pub fn new(format: Format) -> Output {
        Output {
            format,
            scene: None,
            full: false,
        }
    }

    pub fn full(self, full: bool) -> Output {
        Output { full, ..self }
    }

    pub fn with_scene(self, scene: Scene) -> Output {
        Output {
            scene: Some(scene),
            ..self
        }
    }

    /// What the doctor makes of a failure (nothing without a scene).
    fn diagnoses(&self, e: &RequestError) -> Vec<Diagnosis> {
        self.scene
            .as_ref()
            .map(|scene| doctor::after_failure(e, scene))
            .unwrap_or_default()
    }

    /// A tool's result: like [`Output::result`], and when it is an error the doctor can
    /// explain (a tool that needs the legacy era), the hint, in JSON as `diagnoses` beside the
    /// result's own members.
    pub fn tool_result(&self, result: Result<Value, RequestError>, text: impl Fn(&Value)) -> Exit {
        let found = match (&result, &self.scene) {
            (Ok(v), Some(scene)) => doctor::after_tool_error(v, scene),
            _ => Vec::new(),
        };
        if found.is_empty() {
            return self.result(result, text);
        }
        let mut v = result.expect("diagnosed results are results");
        match self.format {
            Format::Json => {
                if let Some(object) = v.as_object_mut() {
                    object.insert("diagnoses".into(), serde_json::json!(found));
                }
                say!("{}", pretty(&v));
            }
            Format::Text => {
                text(&v);
                crate::hints::tell_all(&found);
            }
        }
        Exit::Ok
    }

    /// Prints a list: one line per item as text, or a JSON array.
    pub fn list(
        &self,
        result: Result<Vec<Value>, RequestError>,
        line: fn(&Value) -> String,
    ) -> Exit {
        self.result(result.map(Value::Array), |v| {
            let items = v.as_array().map(Vec::as_slice).unwrap_or_default();
            if items.is_empty() {
                say!("(none)");
            }
            for item in items {
                say!("{}", line(item));
                if self.full {
                    for detail in full_item(item) {
                        say!("{detail}");
                    }
                }
            }
        })
    }

    /// Prints a result (text via `text`, or as JSON), or the error on stderr.
    pub fn result(&self, result: Result<Value, RequestError>, text: impl Fn(&Value)) -> Exit {
        match result {
            Ok(v) => {
                match self.format {
                    Format::Json => say!("{}", pretty(&v)),
                    Format::Text => text(&v),
                }
                Exit::Ok
            }
            Err(e) => {
                // The same sentence the app words in its languages, from the same kind.
                tell!("periscope: {}", Problem::from(&e));
                let found = self.diagnoses(&e);
                crate::hints::tell_all(&found);
                if self.format == Format::Json {
                    print_failure(&e, &found);
                }
                exit_for(&e)
            }
        }
    }
}

/// A failure in JSON on stdout: an error response's error object, with the doctor's
/// `diagnoses` when it has any; another failure only when it has some (its words are on
/// stderr), as `{"error": {"message": …}, "diagnoses": […]}`.
pub fn print_failure(e: &RequestError, found: &[Diagnosis]) {
    let mut out = match e {
        RequestError::Rpc { error, .. } => serde_json::json!({"error": error}),
        _ if found.is_empty() => return,
        _ => serde_json::json!({"error": {"message": Problem::from(e).to_string()}}),
    };
    if !found.is_empty() {
        out["diagnoses"] = serde_json::json!(found);
    }
    say!("{}", pretty(&out));
}

pub fn exit_for(e: &RequestError) -> Exit {
    match e {
        // A server that did not take the request in time is a timeout too.
        RequestError::TimedOut { .. }
        | RequestError::Send {
            source: SendError::Stalled(_),
            ..
        } => Exit::Timeout,
        RequestError::Closed { .. }
        | RequestError::Send { .. }
        | RequestError::Transport { .. }
        | RequestError::StreamBroke { .. }
        | RequestError::SessionExpired { .. } => Exit::Connect,
        RequestError::Rpc { .. }
        | RequestError::Protocol { .. }
        | RequestError::Refused { .. }
        | RequestError::Cancelled { .. } => Exit::Protocol,
    }
}

/// Pretty JSON, with nothing in it a terminal would obey (`terminal::json`).
pub fn pretty(v: &Value) -> String {
    crate::terminal::json(v)
}

fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

/// `head — ` and the description's first line; when it has more, how many and that `--full`
/// prints them (and whether hidden characters are among them): the one line must not pass
/// for all a model is told.
fn with_description(head: String, v: &Value) -> String {
    let Some(d) = v.get("description").and_then(Value::as_str) else {
        return head;
    };
    let mut lines = d.lines();
    let Some(first) = lines.next() else {
        return head;
    };
    let rest: Vec<&str> = lines.collect();
    let hidden_later = rest.iter().any(|l| !hidden_text::find(l).is_empty());
    let more = match (rest.len(), hidden_later) {
        (0, _) => String::new(),
        (1, false) => " (+1 more line: --full)".to_string(),
        (n, false) => format!(" (+{n} more lines: --full)"),
        (1, true) => " (+1 more line, with hidden characters: --full)".to_string(),
        (n, true) => format!(" (+{n} more lines, hidden characters among them: --full)"),
    };
    format!("{head} — {first}{more}")
}

/// `--full`: an item whole, indented under its line: its title, every line of its
/// description, a tool's schemas, a prompt's arguments, a resource's type. Like every line
/// printed, each is stripped and its hidden characters marked by `say!`.
pub fn full_item(v: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let indent = |text: &str, by: &str, out: &mut Vec<String>| {
        for line in text.lines() {
            out.push(format!("{by}{line}"));
        }
    };
    if let Some(title) = v.get("title").and_then(Value::as_str) {
        out.push(format!("    title: {title}"));
    }
    if let Some(d) = v.get("description").and_then(Value::as_str) {
        out.push("    description:".into());
        indent(d, "        ", &mut out);
    }
    for (key, label) in [
        ("inputSchema", "input schema"),
        ("outputSchema", "output schema"),
    ] {
        if let Some(schema) = v.get(key) {
            out.push(format!("    {label}:"));
            indent(&terminal::json(schema), "        ", &mut out);
        }
    }
    if let Some(args) = v.get("arguments").and_then(Value::as_array) {
        out.push("    arguments:".into());
        for arg in args {
            let required = arg.get("required") == Some(&Value::Bool(true));
            out.push(format!(
                "        {}{}",
                str_of(arg, "name"),
                if required { " (required)" } else { "" }
            ));
            if let Some(d) = arg.get("description").and_then(Value::as_str) {
                indent(d, "            ", &mut out);
            }
        }
    }
    if let Some(mime) = v.get("mimeType").and_then(Value::as_str) {
        out.push(format!("    type: {mime}"));
    }
    out
}

pub fn tool_line(v: &Value) -> String {
    let params: Vec<String> = v
        .pointer("/inputSchema/properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default();
    let name = str_of(v, "name");
    // A name that passes for another (a Latin name with a Cyrillic letter) says so.
    let odd: Vec<String> = periscope_core::name_scripts::odd_letters(name)
        .into_iter()
        .map(|o| format!("{} is {} in a {} name", o.code_point, o.script, o.main))
        .collect();
    let mixed = if odd.is_empty() {
        String::new()
    } else {
        format!(" [mixed scripts: {}]", odd.join(", "))
    };
    with_description(format!("{name}({}){mixed}", params.join(", ")), v)
}

pub fn resource_line(v: &Value) -> String {
    let mime = v
        .get("mimeType")
        .and_then(Value::as_str)
        .map(|m| format!(" [{m}]"))
        .unwrap_or_default();
    with_description(
        format!("{}  {}{mime}", str_of(v, "uri"), str_of(v, "name")),
        v,
    )
}

pub fn template_line(v: &Value) -> String {
    with_description(
        format!("{}  {}", str_of(v, "uriTemplate"), str_of(v, "name")),
        v,
    )
}

pub fn prompt_line(v: &Value) -> String {
    let args: Vec<String> = v
        .get("arguments")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|arg| {
                    let required = arg.get("required") == Some(&Value::Bool(true));
                    format!("{}{}", str_of(arg, "name"), if required { "" } else { "?" })
                })
                .collect()
        })
        .unwrap_or_default();
    with_description(format!("{}({})", str_of(v, "name"), args.join(", ")), v)
}

/// One content block of a tool result or prompt message, as text.
fn content_text(c: &Value) -> String {
    let b64_len = |c: &Value| str_of(c, "data").len() / 4 * 3;
    match str_of(c, "type") {
        "text" => str_of(c, "text").to_string(),
        "image" | "audio" => format!(
            "[{} {}, about {} bytes]",
            str_of(c, "type"),
            str_of(c, "mimeType"),
            b64_len(c)
        ),
        "resource_link" => format!("[resource link {} {}]", str_of(c, "uri"), str_of(c, "name")),
        "resource" => {
            let r = c.get("resource").cloned().unwrap_or(Value::Null);
            match r.get("text").and_then(Value::as_str) {
                Some(text) => format!("[resource {}]\n{text}", str_of(&r, "uri")),
                None => format!("[resource {}, blob]", str_of(&r, "uri")),
            }
        }
        _ => pretty(c),
    }
}

pub fn print_tool_result(v: &Value) {
    if v.get("isError") == Some(&Value::Bool(true)) {
        tell!("periscope: the tool reported an error (isError: true)");
    }
    for c in v
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        say!("{}", content_text(c));
    }
    if let Some(structured) = v.get("structuredContent") {
        say!("structuredContent: {}", pretty(structured));
    }
}

pub fn print_resource_contents(v: &Value) {
    for c in v
        .get("contents")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        match c.get("text").and_then(Value::as_str) {
            Some(text) => say!("{text}"),
            None => say!(
                "[blob {} {}, about {} bytes]",
                str_of(c, "uri"),
                str_of(c, "mimeType"),
                str_of(c, "blob").len() / 4 * 3
            ),
        }
    }
}

/// `periscope info`: the era and what the server said about itself, from the engine's reading
/// of it (the JSON as sent is what `--format json` prints).
pub fn print_identity(identity: &ServerIdentity) {
    use periscope_core::era::EraReason;
    let how = match &identity.era_reason {
        EraReason::Pinned => "pinned".to_string(),
        EraReason::Discovered => "found by server/discover".to_string(),
        EraReason::ProbeFailed { answer } => format!(
            "server/discover failed ({}), fell back to initialize",
            crate::terminal::safe(&answer.to_string())
        ),
        EraReason::Remembered => "remembered from an earlier connection".to_string(),
    };
    say!("era: {} ({how})", identity.era);
    say!(
        "protocol version: {}",
        crate::terminal::safe(&identity.protocol_version)
    );
    if !identity.supported_versions.is_empty() {
        say!(
            "supported versions: {}",
            crate::terminal::safe(&identity.supported_versions.join(", "))
        );
    }
    say!("transport: {}", identity.transport);
    let info = &identity.info;
    say!(
        "server: {}",
        crate::terminal::safe(&info.label().unwrap_or_else(|| "(no name)".into()))
    );
    if let Some(title) = &info.title {
        say!("title: {}", crate::terminal::safe(title));
    }
    if let Some(text) = &identity.instructions {
        say!("instructions: {}", crate::terminal::safe(text));
    }
    say!("capabilities: {}", pretty(&identity.capabilities));
    for problem in info.problems.iter().chain(&identity.offers.problems) {
        say!("off-spec: {problem}");
    }
    for warning in &identity.warnings {
        say!("warning: {}", crate::terminal::safe(&warning.to_string()));
    }
}

pub fn print_prompt(v: &Value) {
    if let Some(d) = v.get("description").and_then(Value::as_str) {
        say!("# {d}");
    }
    for m in v
        .get("messages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let content = m.get("content").map(content_text).unwrap_or_default();
        say!("{}: {content}", str_of(m, "role"));
    }
}

pub fn progress_line(p: &Progress) -> String {
    let total = p.total.map(|t| format!("/{t}")).unwrap_or_default();
    let message = p
        .message
        .as_deref()
        .map(|m| format!(": {m}"))
        .unwrap_or_default();
    format!("[progress {}{total}{message}]", p.progress)
}

/// The first `max` characters of `text` on one line, for quoting a frame in a message.
pub fn preview(text: &str, max: usize) -> String {
    // Only the first `max` characters are copied: the text can be a frame of megabytes.
    let mut one_line: String = text
        .chars()
        .take(max)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if text.chars().nth(max).is_some() {
        one_line.push('…');
    }
    one_line
}

/// The start of a frame's bytes as text, enough for a [`preview`] of `max` characters (a UTF-8
/// character is at most 4 bytes), without copying the whole frame.
pub fn frame_start(bytes: &[u8], max: usize) -> String {
    let end = bytes.len().min(max * 4 + 4);
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

/// What a flag means, for a warning line; `None` for flags the CLI reports elsewhere.
pub fn flag_text(flag: &Flag) -> Option<String> {
    let id = |id: &dyn std::fmt::Display| id.to_string();
    Some(match flag {
        Flag::UnknownResponseId { id: Some(i) } => {
            format!(
                "a response to request id {}, which Periscope never sent",
                id(i)
            )
        }
        Flag::UnknownResponseId { id: None } => "a response with \"id\": null".to_string(),
        Flag::DuplicateResponse { id: i } => {
            format!(
                "a second response to request id {}; the first one was used",
                id(i)
            )
        }
        Flag::LateResponse { id: i, gave_up } => format!(
            "a response to request id {} after Periscope {}",
            id(i),
            match gave_up {
                GaveUp::TimedOut => "gave up waiting",
                GaveUp::Cancelled => "cancelled it",
            }
        ),
        Flag::Oversized { limit } => {
            format!("bigger than the {limit}-byte frame limit; only the first part was kept")
        }
        Flag::UndeclaredCapability { method } => {
            format!("the server sent {method}, a capability Periscope did not declare")
        }
        Flag::SessionExpired => {
            "the server forgot the HTTP session (404); a new session was started".to_string()
        }
        Flag::UnexpectedContentType { content_type } => {
            format!("an HTTP answer with content type {content_type:?}, not application/json")
        }
        Flag::SendStalled {
            unsent_bytes,
            total_bytes,
        } => format!(
            "a message the server did not read in time ({} of {} unsent)",
            periscope_core::limits::human_bytes(*unsent_bytes),
            periscope_core::limits::human_bytes(*total_bytes)
        ),
        Flag::TooManyServerRequests { limit } => format!(
            "a request from the server refused: {limit} of its requests were already being answered"
        ),
        Flag::Incomplete { cut } => match cut {
            Cut::StreamEnded => "an incomplete message: the stream ended in the middle of it",
            Cut::TooSlow => {
                "an incomplete message: it arrived slower than the time limit and was cut"
            }
        }
        .to_string(),
        Flag::UrlRefused { refused } => refused.to_string(),
        Flag::UnknownSubscriptionId { id } => format!(
            "a notification tagged with subscription id {id}, which names no listen stream Periscope opened"
        ),
        Flag::StreamBroke {
            reissued_as: Some(i),
        } => format!(
            "a request whose response stream broke before its response; re-issued as request id {}",
            id(i)
        ),
        Flag::StreamBroke { reissued_as: None } => {
            "a request whose response stream broke before its response; not re-issued".to_string()
        }
        Flag::SchemaViolation {
            revision,
            violations,
        } => {
            // One line per violation: where in the frame, what, and the schema's rule.
            let mut text = format!("off the {revision} schema:");
            for v in violations {
                let path = if v.path.is_empty() {
                    "(the message)"
                } else {
                    &v.path
                };
                let rule = if v.rule.is_empty() {
                    String::new()
                } else {
                    format!(" [{} at {}]", v.rule, v.schema_path)
                };
                text.push_str(&format!(
                    "\n    {}: {}{rule}",
                    crate::terminal::safe(path),
                    crate::terminal::safe(&v.message)
                ));
            }
            text
        }
        Flag::ReusedRequestId { id: i, first_seq } => format!(
            "a request reusing id {}, which the request in frame {first_seq} still waits on",
            crate::terminal::safe(&id(i))
        ),
        Flag::NotChecked { frames } => format!(
            "the {frames} frames before this one were not checked against the protocol schema (the checks fell behind)"
        ),
        Flag::AppProblem { problem } => format!("an MCP App's message: {problem}"),
        Flag::SkillRefused { uri, refusal } => {
            format!("a skill file withheld: {}", refusal.describe(uri))
        }
        // Reported by the initialize warning and the raw command's own message.
        Flag::UnsupportedProtocolVersion { .. } | Flag::InvalidUserFrame => return None,
    })
}
