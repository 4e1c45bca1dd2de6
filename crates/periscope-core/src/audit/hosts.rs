//! The host matrix: for each tool and each major host (the Anthropic, OpenAI and Gemini APIs,
//! OpenAI's strict mode, Claude Code, VS Code, Cursor), whether the host accepts it as is,
//! changes it (and how: the tool as the host sends it), or rejects it, and why. The rules are
//! data, each with its public source, in `hosts.toml` beside this file: this module only reads
//! and applies them. See docs/audit.md, "Hosts".

use std::sync::OnceLock;

use regex::Regex;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::views::tool::ToolView;

/// The rules, as data.
const HOSTS_TOML: &str = include_str!("hosts.toml");

/// A host of the matrix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, rename = "AuditHost"))]
pub struct Host {
    pub id: String,
    pub name: String,
    pub source: String,
}

/// What a host does with a tool, from best to worst.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum HostVerdict {
    /// Sent as is.
    Accepts,
    /// Sent as is; the host warns, or the rule is not settled.
    Warns,
    /// Rewritten (renamed, cut, keywords dropped) and sent.
    Changes,
    /// The tool is left out, or the whole request fails.
    Rejects,
}

/// Where a rule comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum RuleBasis {
    /// The host's documentation says it.
    Documented,
    /// The host's own code does it.
    Code,
    /// An error the host gave, reported in public.
    Observed,
}

/// What a rule looks at (hosts.toml's `check`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Check {
    NamePattern,
    NameChars,
    NameMax,
    DescriptionMax,
    DescriptionEmpty,
    ToolsMax,
    RootObject,
    RootKeywords,
    Keywords,
    ArrayItems,
    StrictObjects,
    DepthMax,
    PropertiesMax,
    EnumMax,
    PropertyNames,
    SchemaValid,
}

#[derive(Debug, Deserialize)]
struct RuleDef {
    host: String,
    check: Check,
    #[serde(default)]
    pattern: Option<String>,
    #[serde(default)]
    allowed: Option<String>,
    #[serde(default)]
    prefix: Option<String>,
    /// The most characters of the server's name the host keeps in `prefix`.
    #[serde(default)]
    server_max: Option<usize>,
    #[serde(default)]
    max: Option<usize>,
    #[serde(default)]
    keywords: Vec<String>,
    /// False when the host's rewrite is not one this module can show (a flattening).
    #[serde(default = "yes")]
    rewrite: bool,
    effect: HostVerdict,
    message: String,
    /// `message` in Simplified Chinese.
    message_zh: String,
    source: String,
    basis: RuleBasis,
}

impl RuleBasis {
    pub fn id(self) -> &'static str {
        match self {
            RuleBasis::Documented => "documented",
            RuleBasis::Code => "code",
            RuleBasis::Observed => "observed",
        }
    }
}

fn yes() -> bool {
    true
}

#[derive(Debug, Deserialize)]
struct HostsFile {
    host: Vec<Host>,
    rule: Vec<RuleDef>,
}

/// A rule ready to apply: its definition and its compiled pattern.
struct Rule {
    def: RuleDef,
    regex: Option<Regex>,
}

struct Rules {
    hosts: Vec<Host>,
    rules: Vec<Rule>,
}

fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    RULES.get_or_init(|| {
        // hosts.toml is part of the build; the unit tests read it, so a broken file fails them.
        let file: HostsFile = toml::from_str(HOSTS_TOML).expect("audit/hosts.toml is valid");
        let rules = file
            .rule
            .into_iter()
            .map(|def| {
                let regex = match (&def.pattern, &def.allowed) {
                    (Some(p), _) => Some(Regex::new(p).expect("a rule's pattern compiles")),
                    (None, Some(allowed)) => {
                        Some(Regex::new(&format!("[^{allowed}]")).expect("a class compiles"))
                    }
                    _ => None,
                };
                Rule { def, regex }
            })
            .collect();
        Rules {
            hosts: file.host,
            rules,
        }
    })
}

/// The hosts of the matrix, in its column order.
pub fn hosts() -> &'static [Host] {
    &rules().hosts
}

/// Why a host does what it does with a tool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct HostReason {
    /// What the rule looks at (`name_pattern`, `root_keywords`…).
    pub check: String,
    pub effect: HostVerdict,
    pub message: String,
    /// The message in Simplified Chinese.
    pub message_zh: String,
    /// What in this tool broke the rule (the name sent, the keyword and where…).
    pub detail: String,
    pub source: String,
    pub basis: RuleBasis,
}

/// One host's verdict on one tool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ToolOnHost {
    pub host: String,
    pub verdict: HostVerdict,
    pub reasons: Vec<HostReason>,
    /// The tool as this host sends it (name, description, input schema), when it changes it.
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub sent: Option<Value>,
}

/// A tool's row of the matrix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ToolHosts {
    pub tool: String,
    /// In the hosts' order.
    pub hosts: Vec<ToolOnHost>,
}

/// A host's verdict on the server as a whole (how many tools it lists).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ServerOnHost {
    pub host: String,
    pub reason: HostReason,
}

/// The whole matrix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct HostReport {
    pub hosts: Vec<Host>,
    pub tools: Vec<ToolHosts>,
    pub server: Vec<ServerOnHost>,
}

impl HostReport {
    /// How many tools each verdict has on `host`.
    pub fn count(&self, host: &str, verdict: HostVerdict) -> usize {
        self.tools
            .iter()
            .filter(|t| {
                t.hosts
                    .iter()
                    .any(|h| h.host == host && h.verdict == verdict)
            })
            .count()
    }
}

/// The matrix of `server`'s `tools`.
pub fn matrix(server: &str, tools: &[ToolView]) -> HostReport {
    let all = rules();
    let mut report = HostReport {
        hosts: all.hosts.clone(),
        tools: Vec::new(),
        server: Vec::new(),
    };
    for rule in all.rules.iter().filter(|r| r.def.check == Check::ToolsMax) {
        let max = rule.def.max.unwrap_or(usize::MAX);
        if tools.len() > max {
            report.server.push(ServerOnHost {
                host: rule.def.host.clone(),
                reason: reason(&rule.def, format!("{} tools, more than {max}", tools.len())),
            });
        }
    }
    for tool in tools {
        let Some(name) = &tool.name else { continue };
        let hosts = all
            .hosts
            .iter()
            .map(|host| on_host(server, name, tool, &host.id, &all.rules))
            .collect();
        report.tools.push(ToolHosts {
            tool: name.clone(),
            hosts,
        });
    }
    report
}

fn reason(def: &RuleDef, detail: String) -> HostReason {
    HostReason {
        check: serde_json::to_value(def.check)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default(),
        effect: def.effect,
        message: def.message.clone(),
        message_zh: def.message_zh.clone(),
        detail,
        source: def.source.clone(),
        basis: def.basis,
    }
}

/// The tool as a host would send it, rewritten by the rules that change it.
struct Sent {
    name: String,
    description: Option<String>,
    schema: Value,
    changed: bool,
}

fn on_host(server: &str, name: &str, tool: &ToolView, host: &str, rules: &[Rule]) -> ToolOnHost {
    let schema = tool.input_schema.clone().unwrap_or(Value::Null);
    let mut sent = Sent {
        name: name.to_string(),
        description: tool.description.clone(),
        schema: schema.clone(),
        changed: false,
    };
    let mut reasons = Vec::new();
    for rule in rules.iter().filter(|r| r.def.host == host) {
        if let Some(detail) = apply(rule, server, name, tool, &schema, &mut sent) {
            reasons.push(reason(&rule.def, detail));
        }
    }
    let verdict = reasons
        .iter()
        .map(|r| r.effect)
        .max()
        .unwrap_or(HostVerdict::Accepts);
    let sent = sent.changed.then(|| {
        let mut out = Map::new();
        out.insert("name".into(), sent.name.into());
        if let Some(d) = sent.description {
            out.insert("description".into(), d.into());
        }
        out.insert("inputSchema".into(), sent.schema);
        Value::Object(out)
    });
    ToolOnHost {
        host: host.to_string(),
        verdict,
        reasons,
        sent,
    }
}

/// What broke `rule` in this tool, if anything; a rule that changes the tool rewrites `sent`.
fn apply(
    rule: &Rule,
    server: &str,
    name: &str,
    tool: &ToolView,
    schema: &Value,
    sent: &mut Sent,
) -> Option<String> {
    let def = &rule.def;
    let changes = def.effect == HostVerdict::Changes && def.rewrite;
    let server: String = server
        .chars()
        .take(def.server_max.unwrap_or(usize::MAX))
        .collect();
    let server = server.as_str();
    let prefixed = || {
        def.prefix
            .as_deref()
            .unwrap_or("")
            .replace("{server}", server)
            + name
    };
    match def.check {
        Check::NamePattern => {
            let full = prefixed();
            let regex = rule.regex.as_ref()?;
            (!regex.is_match(&full)).then(|| format!("name \"{full}\""))
        }
        Check::NameChars => {
            // Only the tool's own name is judged: the server's name in the prefix is the one
            // the user gave the host, not necessarily the server's (it is cleaned the same way).
            let regex = rule.regex.as_ref()?;
            if !regex.is_match(name) {
                return None;
            }
            let prefix = def
                .prefix
                .as_deref()
                .unwrap_or("")
                .replace("{server}", &regex.replace_all(server, "_"));
            let renamed = format!("{prefix}{}", regex.replace_all(name, "_"));
            if changes {
                sent.name = renamed.clone();
                sent.changed = true;
            }
            Some(format!("\"{name}\" is sent as \"{renamed}\""))
        }
        Check::NameMax => {
            let full = if changes && !sent.name.is_empty() && def.prefix.is_some() {
                // The host's own name so far (characters already replaced), prefixed.
                let prefix = def
                    .prefix
                    .as_deref()
                    .unwrap_or("")
                    .replace("{server}", server);
                if sent.name.starts_with(&prefix) {
                    sent.name.clone()
                } else {
                    prefix + &sent.name
                }
            } else {
                prefixed()
            };
            let max = def.max?;
            let chars = full.chars().count();
            if chars <= max {
                return None;
            }
            if changes {
                sent.name = full.chars().take(max).collect();
                sent.changed = true;
            }
            Some(format!(
                "\"{full}\" has {chars} characters, more than {max}"
            ))
        }
        Check::DescriptionMax => {
            let max = def.max?;
            let chars = tool.description.as_deref()?.chars().count();
            if chars <= max {
                return None;
            }
            if changes {
                sent.description = sent
                    .description
                    .as_ref()
                    .map(|d| d.chars().take(max).collect());
                sent.changed = true;
            }
            Some(format!(
                "the description has {chars} characters, more than {max}"
            ))
        }
        Check::DescriptionEmpty => {
            if tool
                .description
                .as_deref()
                .is_some_and(|d| !d.trim().is_empty())
            {
                return None;
            }
            if changes {
                sent.description = Some("No description provided".to_string());
                sent.changed = true;
            }
            Some("no description".to_string())
        }
        Check::ToolsMax => None,
        Check::RootObject => {
            if schema.get("type").and_then(Value::as_str) == Some("object") {
                return None;
            }
            if changes {
                sent.schema = json!({"type": "object", "properties": {}});
                sent.changed = true;
            }
            Some(match schema.get("type") {
                Some(t) => format!("the root's type is {t}"),
                None if schema.is_object() => "the root has no \"type\": \"object\"".to_string(),
                None => "no input schema".to_string(),
            })
        }
        Check::RootKeywords => {
            let found: Vec<&String> = def
                .keywords
                .iter()
                .filter(|k| schema.get(k.as_str()).is_some())
                .collect();
            if found.is_empty() {
                return None;
            }
            if changes && let Some(root) = sent.schema.as_object_mut() {
                for k in &found {
                    root.remove(k.as_str());
                }
                sent.changed = true;
            }
            Some(format!("{} at the root", list(&found)))
        }
        Check::Keywords => {
            let mut found: Vec<String> = Vec::new();
            walk(schema, "", &mut |at, s| {
                if let Some(obj) = s.as_object() {
                    for k in &def.keywords {
                        if obj.contains_key(k) {
                            found.push(format!("{k} at {}", pointer(at)));
                        }
                    }
                }
            });
            if found.is_empty() {
                return None;
            }
            if changes {
                strip(&mut sent.schema, &def.keywords);
                sent.changed = true;
            }
            Some(found.join(", "))
        }
        Check::ArrayItems => {
            let mut found = Vec::new();
            walk(schema, "", &mut |at, s| {
                if is_type(s, "array") && s.get("items").is_none() && s.get("prefixItems").is_none()
                {
                    found.push(pointer(at));
                }
            });
            (!found.is_empty()).then(|| format!("no items at {}", found.join(", ")))
        }
        Check::StrictObjects => {
            let mut found = Vec::new();
            walk(schema, "", &mut |at, s| {
                if !(is_type(s, "object") || s.get("properties").is_some()) {
                    return;
                }
                if s.get("additionalProperties") != Some(&Value::Bool(false)) {
                    found.push(format!(
                        "{}: additionalProperties is not false",
                        pointer(at)
                    ));
                }
                let required: Vec<&str> = s
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let optional: Vec<&String> = s
                    .get("properties")
                    .and_then(Value::as_object)
                    .map(|p| {
                        p.keys()
                            .filter(|k| !required.contains(&k.as_str()))
                            .collect()
                    })
                    .unwrap_or_default();
                if !optional.is_empty() {
                    found.push(format!("{}: {} not required", pointer(at), list(&optional)));
                }
            });
            (!found.is_empty()).then(|| found.join("; "))
        }
        Check::DepthMax => {
            let max = def.max?;
            let depth = depth(schema);
            (depth > max).then(|| format!("{depth} levels of nesting, more than {max}"))
        }
        Check::PropertiesMax => {
            let max = def.max?;
            let mut n = 0;
            walk(schema, "", &mut |_, s| {
                n += s
                    .get("properties")
                    .and_then(Value::as_object)
                    .map_or(0, Map::len);
            });
            (n > max).then(|| format!("{n} properties, more than {max}"))
        }
        Check::EnumMax => {
            let max = def.max?;
            let mut n = 0;
            walk(schema, "", &mut |_, s| {
                n += s.get("enum").and_then(Value::as_array).map_or(0, Vec::len);
            });
            (n > max).then(|| format!("{n} enum values, more than {max}"))
        }
        Check::PropertyNames => {
            let regex = rule.regex.as_ref()?;
            let bad: Vec<&String> = schema
                .get("properties")
                .and_then(Value::as_object)
                .map(|p| p.keys().filter(|k| !regex.is_match(k)).collect())
                .unwrap_or_default();
            (!bad.is_empty()).then(|| format!("property {}", list(&bad)))
        }
        Check::SchemaValid => {
            if !schema.is_object() || jsonschema::draft7::meta::is_valid(schema) {
                return None;
            }
            let why = jsonschema::draft7::meta::validate(schema)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            Some(format!("not valid draft-07: {why}"))
        }
    }
}

fn list<S: AsRef<str>>(items: &[S]) -> String {
    items
        .iter()
        .map(|s| s.as_ref().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// `""` is the root: written `/`.
fn pointer(at: &str) -> String {
    if at.is_empty() {
        "/".to_string()
    } else {
        at.to_string()
    }
}

fn is_type(schema: &Value, name: &str) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) => t == name,
        Some(Value::Array(ts)) => ts.iter().any(|t| t == name),
        _ => false,
    }
}

/// The members of a schema that hold schemas: one, or a map or list of them.
const ONE: [&str; 6] = ["items", "additionalProperties", "not", "if", "then", "else"];
const MAP: [&str; 4] = ["properties", "$defs", "definitions", "patternProperties"];
const LIST: [&str; 5] = ["anyOf", "oneOf", "allOf", "prefixItems", "items"];

/// Visits `schema` and every schema inside it, each with its JSON Pointer.
fn walk(schema: &Value, at: &str, visit: &mut dyn FnMut(&str, &Value)) {
    let Some(obj) = schema.as_object() else {
        return;
    };
    visit(at, schema);
    for key in ONE {
        if let Some(s) = obj.get(key).filter(|s| s.is_object()) {
            walk(s, &format!("{at}/{key}"), visit);
        }
    }
    for key in MAP {
        if let Some(map) = obj.get(key).and_then(Value::as_object) {
            for (name, s) in map {
                walk(
                    s,
                    &format!("{at}/{key}/{}", name.replace('~', "~0").replace('/', "~1")),
                    visit,
                );
            }
        }
    }
    for key in LIST {
        if let Some(items) = obj.get(key).and_then(Value::as_array) {
            for (i, s) in items.iter().enumerate() {
                walk(s, &format!("{at}/{key}/{i}"), visit);
            }
        }
    }
}

/// Object nesting: the root object is 1; each object under `properties` or `items` adds one.
fn depth(schema: &Value) -> usize {
    let Some(obj) = schema.as_object() else {
        return 0;
    };
    let mut deepest = 0;
    if let Some(props) = obj.get("properties").and_then(Value::as_object) {
        for s in props.values() {
            deepest = deepest.max(depth(s));
        }
    }
    if let Some(items) = obj.get("items") {
        deepest = deepest.max(depth(items));
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        for s in obj.get(key).and_then(Value::as_array).into_iter().flatten() {
            deepest = deepest.max(depth(s));
        }
    }
    let own = usize::from(is_type(schema, "object") || obj.contains_key("properties"));
    own + deepest
}

/// `schema` without `keywords`, at every level.
fn strip(schema: &mut Value, keywords: &[String]) {
    match schema {
        Value::Object(obj) => {
            for k in keywords {
                obj.remove(k);
            }
            for (_, v) in obj.iter_mut() {
                strip(v, keywords);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| strip(v, keywords)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::TaskFlavour;

    fn tool(raw: Value) -> ToolView {
        ToolView::read(&raw, &json!({}), TaskFlavour::Legacy)
    }

    fn on<'a>(report: &'a HostReport, tool: &str, host: &str) -> &'a ToolOnHost {
        report
            .tools
            .iter()
            .find(|t| t.tool == tool)
            .unwrap()
            .hosts
            .iter()
            .find(|h| h.host == host)
            .unwrap()
    }

    #[test]
    fn the_rules_file_reads_and_every_rule_names_a_known_host_and_a_source() {
        let all = rules();
        assert_eq!(all.hosts.len(), 7);
        for rule in &all.rules {
            assert!(
                all.hosts.iter().any(|h| h.id == rule.def.host),
                "{}",
                rule.def.host
            );
            assert!(!rule.def.source.is_empty() && !rule.def.message.is_empty());
            assert!(!rule.def.message_zh.is_empty(), "{}", rule.def.message);
            // A Chinese message, not a copy of the English one.
            assert!(
                rule.def
                    .message_zh
                    .chars()
                    .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{}: message_zh",
                rule.def.message
            );
            let needs_max = matches!(
                rule.def.check,
                Check::NameMax
                    | Check::DescriptionMax
                    | Check::ToolsMax
                    | Check::DepthMax
                    | Check::PropertiesMax
                    | Check::EnumMax
            );
            assert_eq!(rule.def.max.is_some(), needs_max, "{:?}", rule.def.check);
            let needs_regex = matches!(
                rule.def.check,
                Check::NamePattern | Check::NameChars | Check::PropertyNames
            );
            assert_eq!(rule.regex.is_some(), needs_regex, "{:?}", rule.def.check);
        }
    }

    #[test]
    fn a_plain_tool_is_accepted_everywhere_but_where_strict_mode_needs_more() {
        let report = matrix(
            "weather",
            &[tool(
                json!({"name": "get_weather", "description": "Gets the weather.",
                "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}},
                    "required": ["city"]}}),
            )],
        );
        for host in hosts() {
            let verdict = on(&report, "get_weather", &host.id);
            let expected = if host.id == "openai-strict" {
                HostVerdict::Rejects
            } else {
                HostVerdict::Accepts
            };
            assert_eq!(verdict.verdict, expected, "{verdict:?}");
            assert!(verdict.sent.is_none());
        }
    }

    #[test]
    fn a_root_combinator_is_refused_by_the_api_and_rewritten_by_the_clients() {
        let report = matrix(
            "s",
            &[tool(json!({"name": "pick", "description": "Picks.",
                "inputSchema": {"type": "object", "anyOf": [{"required": ["a"]}, {"required": ["b"]}],
                    "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}}))],
        );
        assert_eq!(
            on(&report, "pick", "anthropic").verdict,
            HostVerdict::Rejects
        );
        let vscode = on(&report, "pick", "vscode");
        assert_eq!(vscode.verdict, HostVerdict::Changes);
        let sent = vscode.sent.as_ref().unwrap();
        assert!(sent["inputSchema"].get("anyOf").is_none(), "{sent}");
        // Claude Code flattens: said, not shown as a rewrite it does not make.
        let claude = on(&report, "pick", "claude-code");
        assert_eq!(claude.verdict, HostVerdict::Changes);
        assert_eq!(
            on(&report, "pick", "openai-strict").verdict,
            HostVerdict::Rejects
        );
    }

    #[test]
    fn names_are_renamed_cut_or_refused_as_each_host_does() {
        let long = "a".repeat(70);
        let report = matrix(
            "srv",
            &[
                tool(
                    json!({"name": "files.read", "description": "d", "inputSchema": {"type": "object"}}),
                ),
                tool(json!({"name": long, "description": "d", "inputSchema": {"type": "object"}})),
            ],
        );
        assert_eq!(
            on(&report, "files.read", "openai").verdict,
            HostVerdict::Rejects
        );
        assert_eq!(
            on(&report, "files.read", "gemini").verdict,
            HostVerdict::Accepts
        );
        let claude = on(&report, "files.read", "claude-code");
        assert_eq!(claude.verdict, HostVerdict::Changes);
        assert_eq!(
            claude.sent.as_ref().unwrap()["name"],
            "mcp__srv__files_read"
        );
        let vscode = on(&report, &long, "vscode");
        assert_eq!(vscode.verdict, HostVerdict::Changes);
        assert_eq!(
            vscode.sent.as_ref().unwrap()["name"]
                .as_str()
                .unwrap()
                .len(),
            64
        );
        assert_eq!(on(&report, &long, "openai").verdict, HostVerdict::Rejects);
        assert_eq!(on(&report, &long, "anthropic").verdict, HostVerdict::Warns);
    }

    #[test]
    fn gemini_drops_what_its_schema_has_no_field_for() {
        let report = matrix(
            "s",
            &[tool(
                json!({"name": "t", "description": "d", "inputSchema": {
                "$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
                "properties": {"mode": {"const": "fast"}}, "additionalProperties": false}}),
            )],
        );
        let gemini = on(&report, "t", "gemini");
        assert_eq!(gemini.verdict, HostVerdict::Changes);
        assert!(
            gemini.reasons[0].detail.contains("$schema at /"),
            "{gemini:?}"
        );
        assert!(
            gemini.reasons[0]
                .detail
                .contains("const at /properties/mode")
        );
        let schema = &gemini.sent.as_ref().unwrap()["inputSchema"];
        assert_eq!(
            schema,
            &json!({"type": "object", "properties": {"mode": {}}})
        );
    }

    #[test]
    fn strict_mode_wants_every_object_closed_and_every_property_required() {
        let report = matrix(
            "s",
            &[tool(
                json!({"name": "t", "description": "d", "inputSchema": {"type": "object",
                "properties": {"a": {"type": "string"}, "tags": {"type": "array"}}, "required": ["a"]}}),
            )],
        );
        let strict = on(&report, "t", "openai-strict");
        assert_eq!(strict.verdict, HostVerdict::Rejects);
        let details: Vec<&str> = strict.reasons.iter().map(|r| r.detail.as_str()).collect();
        assert!(
            details
                .iter()
                .any(|d| d.contains("additionalProperties is not false")),
            "{details:?}"
        );
        assert!(
            details.iter().any(|d| d.contains("tags not required")),
            "{details:?}"
        );
        assert!(
            details
                .iter()
                .any(|d| d.contains("no items at /properties/tags")),
            "{details:?}"
        );
        assert_eq!(on(&report, "t", "vscode").verdict, HostVerdict::Rejects);
    }

    #[test]
    fn too_many_tools_is_said_for_the_server_on_the_hosts_that_cap_them() {
        let tools: Vec<ToolView> = (0..130)
            .map(|i| tool(json!({"name": format!("t{i}"), "description": "d", "inputSchema": {"type": "object"}})))
            .collect();
        let report = matrix("s", &tools);
        let capped: Vec<&str> = report.server.iter().map(|s| s.host.as_str()).collect();
        assert_eq!(capped, ["openai", "openai-strict", "vscode", "cursor"]);
        assert!(report.server[0].reason.detail.contains("130 tools"));
    }

    #[test]
    fn an_invalid_schema_is_left_out_by_vscode() {
        let report = matrix(
            "s",
            &[tool(
                json!({"name": "t", "description": "d", "inputSchema": {"type": "object",
                "properties": {"n": {"type": "integer", "minimum": "zero"}}}}),
            )],
        );
        let vscode = on(&report, "t", "vscode");
        assert_eq!(vscode.verdict, HostVerdict::Rejects);
        assert!(vscode.reasons[0].detail.starts_with("not valid draft-07"));
    }
}
