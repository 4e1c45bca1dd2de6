//! Protocol checks: every recorded frame checked against the official JSON Schema of the
//! revision in force (embedded from `schemas/`), plus what the spec requires beyond the schema
//! that only a view of the whole exchange can see (a request id reused while its first request
//! is still pending). Findings become flags on the frame (docs/protocol-checks.md).
//!
//! Off the hot path: [`Traffic`](crate::traffic::Traffic) offers each frame to a [`Feed`], a
//! bounded queue read by one worker thread; when the queue is full the frame is not checked
//! (never waited for, never dropped from the record) and the next frame the worker checks
//! carries [`Flag::NotChecked`] with how many were skipped before it.
//!
//! The revision is read from the wire, like a reader of the record would: the version an
//! outgoing `initialize` offers, then the one its response accepts; a modern request's
//! `_meta` names its own. Until one is known nothing is checked.

use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::{BuildHasher, Hash, Hasher};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, OnceLock};

use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use crate::era::meta_key as meta;
// The violation's shape lives with the other record shapes (a flag carries it).
use crate::record::Flag;
pub use crate::record::Violation;
use crate::vocabulary::method::names;
use crate::wire::{Direction, Frame, RequestId, Verdict};
use budget::Budget;

mod budget;

/// Frames waiting for the worker; past this a frame is not checked.
pub const QUEUE_FRAMES: usize = 4096;
/// While the queue is full, every this many skipped frames look whether it has room again.
const RESUME_LOOK_EVERY: u64 = 64;
/// Most violations listed on one frame; more are summed up in one last entry.
pub const MAX_VIOLATIONS: usize = 20;
/// Requests remembered per side while they wait for a response (for the response's method and
/// for reused ids); past this the oldest is forgotten.
const MAX_PENDING: usize = 4096;
/// Frames alike but for their ids that are remembered as having passed (then forgotten all at
/// once): a load run's answers are validated once, not a hundred thousand times.
const MAX_PASSED_SHAPES: usize = 4096;
/// How long the worker waits for more frames once its queue ran dry, before it blocks.
const NAP: std::time::Duration = std::time::Duration::from_micros(500);
/// Longest message kept for one violation (the validator quotes the instance).
const MAX_MESSAGE_CHARS: usize = 240;
/// Stack for the worker: validation recurses with the frame's nesting.
const STACK_BYTES: usize = 16 * 1024 * 1024;
/// The worker's nice value (Linux): when CPU is short, recording and the transports come first
/// and the checks take what is left (frames they cannot get to are counted as not checked).
const WORKER_NICE: i32 = 10;
/// The worker gives up the CPU every this many frames (a few tens of microseconds of checks).
/// A niced thread still runs out the slice it was given, and under a flood the transport's
/// reading task, woken by the next bytes, waited behind it for the CPU. A 1 000 000-frame
/// flood through a session on 2 cores (medians of 5–6 runs): 451 000 frames/s before, 465 000
/// yielding, 475 000 with no checks at all (docs/protocol-checks.md).
const YIELD_EVERY: usize = 32;

/// The embedded schemas, oldest revision first.
const SCHEMAS: [(&str, &str); 5] = [
    ("2024-11-05", include_str!("../schemas/2024-11-05.json")),
    ("2025-03-26", include_str!("../schemas/2025-03-26.json")),
    ("2025-06-18", include_str!("../schemas/2025-06-18.json")),
    ("2025-11-25", include_str!("../schemas/2025-11-25.json")),
    ("2026-07-28", include_str!("../schemas/2026-07-28.json")),
];

/// The revisions with an embedded schema, oldest first.
pub fn revisions() -> impl Iterator<Item = &'static str> {
    SCHEMAS.iter().map(|(r, _)| *r)
}

/// One revision's schema, read once: its definitions located but each parsed only when a
/// message's shape first reaches it, with the method → definition map read from them.
///
/// A session checks a handful of shapes, which reach a few dozen of a revision's hundreds of
/// definitions. Parsing a whole schema (170 KB) into a JSON tree was most of what the checks
/// cost a one-shot call; locating the definitions as raw text allocates no tree.
struct Schema {
    revision: &'static str,
    /// The document's `$schema`, put at the root of each composed schema.
    draft: Option<Value>,
    /// "definitions" (draft-07) or "$defs" (2020-12).
    defs_key: &'static str,
    /// Each definition's raw text, by name, parsed on first use.
    defs: HashMap<String, Definition>,
    /// Request and notification definitions by the method their `method` const names.
    by_method: HashMap<String, String>,
}

/// One definition of an embedded schema: its text, and its tree once something needed it.
struct Definition {
    text: &'static RawValue,
    parsed: OnceLock<Value>,
}

impl Definition {
    fn value(&self) -> &Value {
        self.parsed.get_or_init(|| {
            serde_json::from_str(self.text.get()).expect("embedded schemas are JSON")
        })
    }
}

/// What [`Schema::parse`] reads of a whole document; the definitions stay raw text.
#[derive(serde::Deserialize)]
struct Document<'a> {
    #[serde(rename = "$schema")]
    draft: Option<Value>,
    #[serde(rename = "$defs", borrow)]
    defs: Option<InOrder<'a>>,
    #[serde(borrow)]
    definitions: Option<InOrder<'a>>,
}

/// A JSON object's members as raw text, in the document's order.
struct InOrder<'a>(Vec<(String, &'a RawValue)>);

impl<'de: 'a, 'a> serde::Deserialize<'de> for InOrder<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Members<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for Members<'a> {
            type Value = InOrder<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object of definitions")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<InOrder<'a>, A::Error> {
                let mut members = Vec::new();
                while let Some(member) = map.next_entry()? {
                    members.push(member);
                }
                Ok(InOrder(members))
            }
        }
        deserializer.deserialize_map(Members(std::marker::PhantomData))
    }
}

/// What [`Schema::parse`] reads of each definition: the method its `method` const names.
#[derive(serde::Deserialize)]
struct MethodConst {
    properties: Option<MethodProperty>,
}

#[derive(serde::Deserialize)]
struct MethodProperty {
    method: Option<ConstOf>,
}

#[derive(serde::Deserialize)]
struct ConstOf {
    #[serde(rename = "const")]
    value: Option<Value>,
}

impl Schema {
    fn parse(revision: &'static str, text: &'static str) -> Schema {
        let document: Document = serde_json::from_str(text).expect("embedded schemas are JSON");
        let (defs_key, InOrder(raw)) = match (document.defs, document.definitions) {
            (Some(defs), _) => ("$defs", defs),
            (None, Some(defs)) => ("definitions", defs),
            (None, None) => ("definitions", InOrder(Vec::new())),
        };
        let method_of = |def: &RawValue| {
            serde_json::from_str::<MethodConst>(def.get())
                .ok()
                .and_then(|d| d.properties?.method?.value)
                .and_then(|v| v.as_str().map(str::to_string))
        };
        let mut by_method = HashMap::new();
        // Unions named for a side (`ClientNotification`) can repeat a method's const; the
        // definition named for the message wins, a union only fills a gap.
        for union_pass in [false, true] {
            for (name, def) in &raw {
                let is_union = name.starts_with("Client") || name.starts_with("Server");
                if is_union != union_pass {
                    continue;
                }
                if let Some(method) = method_of(def) {
                    by_method.entry(method).or_insert_with(|| name.clone());
                }
            }
        }
        let defs = raw
            .into_iter()
            .map(|(name, text)| {
                let parsed = OnceLock::new();
                (name, Definition { text, parsed })
            })
            .collect();
        Schema {
            revision,
            draft: document.draft,
            defs_key,
            defs,
            by_method,
        }
    }

    fn has(&self, name: &str) -> bool {
        self.defs.contains_key(name)
    }

    /// The first of `names` this revision defines.
    fn first_of(&self, names: &[&str]) -> Option<String> {
        names.iter().find(|n| self.has(n)).map(|n| n.to_string())
    }

    /// The definitions `roots` name and every one they reach through a local `$ref`.
    fn reachable<'a>(&self, roots: impl Iterator<Item = &'a str>) -> Map<String, Value> {
        let prefix = format!("#/{}/", self.defs_key);
        let mut kept = Map::new();
        let mut todo: Vec<String> = roots.map(str::to_string).collect();
        while let Some(name) = todo.pop() {
            if kept.contains_key(&name) {
                continue;
            }
            let Some(def) = self.defs.get(&name) else {
                continue;
            };
            let def = def.value();
            refs_in(def, &prefix, &mut todo);
            kept.insert(name, def.clone());
        }
        kept
    }

    fn reference(&self, name: &str) -> Value {
        json!({"$ref": format!("#/{}/{}", self.defs_key, name)})
    }

    /// What a message must match: the parts, all of which apply.
    fn shape_of(&self, message: &Message<'_>) -> Shape {
        match message {
            Message::Request { method } => {
                let mut parts = vec![Part::Def(
                    self.first_of(&["JSONRPCRequest"]).unwrap_or_default(),
                )];
                parts.extend(self.by_method.get(*method).cloned().map(Part::Def));
                Shape(parts)
            }
            Message::Notification { method } => {
                let mut parts = vec![Part::Def(
                    self.first_of(&["JSONRPCNotification"]).unwrap_or_default(),
                )];
                parts.extend(self.by_method.get(*method).cloned().map(Part::Def));
                Shape(parts)
            }
            Message::Error => Shape(vec![Part::Def(
                self.first_of(&["JSONRPCErrorResponse", "JSONRPCError"])
                    .unwrap_or_default(),
            )]),
            Message::Result { method } => {
                let generic = Part::Def(
                    self.first_of(&["JSONRPCResultResponse", "JSONRPCResponse"])
                        .unwrap_or_default(),
                );
                let Some(request) = method.and_then(|m| self.by_method.get(m)) else {
                    return Shape(vec![generic]);
                };
                let base = request.strip_suffix("Request").unwrap_or(request);
                // Newer revisions define the whole response (`CallToolResultResponse`, which
                // allows `input_required` too); older ones only the result.
                if let Some(whole) = self.first_of(&[&format!("{base}ResultResponse")]) {
                    return Shape(vec![Part::Def(whole)]);
                }
                match self.first_of(&[&format!("{base}Result"), "EmptyResult"]) {
                    Some(result) => Shape(vec![generic, Part::Result(result)]),
                    None => Shape(vec![generic]),
                }
            }
        }
    }

    /// The schema for `shape`: the parts as an `allOf` at its root, beside the definitions
    /// they reach through `$ref` (so those resolve). Only those: each validator keeps its
    /// document, and the whole set of definitions cost every shape megabytes and a
    /// one-shot call most of its compile time.
    fn compose(&self, shape: &Shape) -> Value {
        let mut root = Map::new();
        if let Some(draft) = &self.draft {
            root.insert("$schema".into(), draft.clone());
        }
        let roots = shape.0.iter().map(|part| match part {
            Part::Def(name) | Part::Result(name) => name.as_str(),
        });
        root.insert(self.defs_key.into(), Value::Object(self.reachable(roots)));
        let parts = shape
            .0
            .iter()
            .filter_map(|part| match part {
                Part::Def(name) if name.is_empty() => None,
                Part::Def(name) => Some(self.reference(name)),
                Part::Result(name) => Some(json!({
                    "properties": {"result": self.reference(name)}
                })),
            })
            .collect();
        root.insert("allOf".into(), Value::Array(parts));
        Value::Object(root)
    }
}

/// Pushes the names of the definitions `value` refers to (`$ref`s that start with `prefix`,
/// JSON pointer escapes undone).
fn refs_in(value: &Value, prefix: &str, names: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, member) in map {
                if key == "$ref"
                    && let Some(rest) = member.as_str().and_then(|r| r.strip_prefix(prefix))
                {
                    // `#/$defs/A/properties/b` needs all of A.
                    let name = rest.split('/').next().unwrap_or(rest);
                    names.push(name.replace("~1", "/").replace("~0", "~"));
                } else {
                    refs_in(member, prefix, names);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| refs_in(item, prefix, names)),
        _ => {}
    }
}

/// One revision's schema, parsed the first time a frame of that revision needs it: a session
/// speaks one or two revisions, and parsing all five cost a one-shot call megabytes.
fn schema_of(revision: &str) -> Option<&'static Schema> {
    static PARSED: [OnceLock<Schema>; SCHEMAS.len()] = [const { OnceLock::new() }; SCHEMAS.len()];
    let i = SCHEMAS.iter().position(|(r, _)| *r == revision)?;
    let (revision, text) = SCHEMAS[i];
    Some(PARSED[i].get_or_init(|| Schema::parse(revision, text)))
}

/// Every embedded schema, parsed (for tests that walk them all).
#[cfg(test)]
fn schemas() -> Vec<&'static Schema> {
    SCHEMAS
        .iter()
        .filter_map(|(revision, _)| schema_of(revision))
        .collect()
}

/// A message as the checks see it.
enum Message<'a> {
    Request {
        method: &'a str,
    },
    Notification {
        method: &'a str,
    },
    /// A successful response; `method` is its request's, when the checks saw the request.
    Result {
        method: Option<&'a str>,
    },
    Error,
}

/// What a frame is checked as, with its bytes, every `"id":` member holding the frame's own id
/// masked (only written compactly, as clients and most servers write it; otherwise the id
/// stays in and the frame is simply its own shape). None for a message checked against nothing.
fn passed_key(
    revision: Option<&'static str>,
    message: &Message<'_>,
    verdict: &Verdict,
    bytes: &[u8],
) -> Option<u64> {
    let mut h = PASSED_HASH.build_hasher();
    revision?.hash(&mut h);
    match message {
        Message::Request { method } => (0u8, Some(*method)).hash(&mut h),
        Message::Notification { method } => (1u8, Some(*method)).hash(&mut h),
        Message::Result { method } => (2u8, *method).hash(&mut h),
        Message::Error => (3u8, None::<&str>).hash(&mut h),
    }
    let id = match verdict {
        Verdict::Request { id, .. } | Verdict::Response { id: Some(id), .. } => Some(id),
        _ => None,
    };
    let needle = id.map(|id| match id {
        RequestId::Number(n) => format!("\"id\":{n}"),
        RequestId::String(s) => format!("\"id\":{}", Value::String(s.clone())),
    });
    // The id's type stays in the key: a string id and a number id are different shapes.
    matches!(id, Some(RequestId::String(_))).hash(&mut h);
    let mut rest = bytes;
    if let Some(needle) = needle {
        let finder = memchr::memmem::Finder::new(needle.as_bytes());
        while let Some(at) = finder.find(rest) {
            h.write(&rest[..at]);
            h.write(b"\"id\":\0");
            rest = &rest[at + needle.len()..];
        }
    }
    h.write(rest);
    Some(h.finish())
}

/// The hash of [`passed_key`]: seeded once per process (a server cannot aim for a key it
/// does not know), and many times faster than std's on a frame's bytes.
static PASSED_HASH: std::sync::LazyLock<foldhash::quality::RandomState> =
    std::sync::LazyLock::new(foldhash::quality::RandomState::default);

/// Definitions a message must match together.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Shape(Vec<Part>);

#[derive(Clone, PartialEq, Eq, Hash)]
enum Part {
    /// The whole message matches this definition.
    Def(String),
    /// The message's `result` matches this definition.
    Result(String),
}

/// Compiled validators, each built the first time a message needs it and kept.
#[derive(Default)]
struct Validators {
    compiled: HashMap<(&'static str, Shape), Option<jsonschema::Validator>>,
}

impl Validators {
    fn check(
        &mut self,
        schema: &'static Schema,
        message: &Message<'_>,
        value: &Value,
    ) -> Vec<Violation> {
        let shape = schema.shape_of(message);
        let validator = self
            .compiled
            .entry((schema.revision, shape.clone()))
            .or_insert_with(|| jsonschema::options().build(&schema.compose(&shape)).ok());
        let Some(validator) = validator else {
            return Vec::new();
        };
        // Nearly every message is valid: asking first is a fraction of collecting errors.
        if validator.is_valid(value) {
            return Vec::new();
        }
        let mut violations = Vec::new();
        let mut more = 0usize;
        for error in validator.iter_errors(value) {
            if violations.len() < MAX_VIOLATIONS {
                violations.push(Violation {
                    path: error.instance_path().to_string(),
                    rule: error.kind().keyword().to_string(),
                    schema_path: error.schema_path().to_string(),
                    message: shorten(&error.to_string()),
                });
            } else {
                more += 1;
                if more > 10_000 {
                    break;
                }
            }
        }
        if more > 0 {
            violations.push(Violation {
                path: String::new(),
                rule: String::new(),
                schema_path: String::new(),
                message: format!("…and {more} more violations, not listed"),
            });
        }
        violations
    }
}

fn shorten(message: &str) -> String {
    if message.chars().count() <= MAX_MESSAGE_CHARS {
        return message.to_string();
    }
    let mut short: String = message.chars().take(MAX_MESSAGE_CHARS).collect();
    short.push('…');
    short
}

/// Checks `value` against definition `name` of `revision`'s schema (for tests and tools).
pub fn check_definition(revision: &str, name: &str, value: &Value) -> Option<Vec<Violation>> {
    let schema = schema_of(revision)?;
    if !schema.has(name) {
        return None;
    }
    let validator = jsonschema::options()
        .build(&schema.compose(&Shape(vec![Part::Def(name.to_string())])))
        .ok()?;
    Some(
        validator
            .iter_errors(value)
            .map(|error| Violation {
                path: error.instance_path().to_string(),
                rule: error.kind().keyword().to_string(),
                schema_path: error.schema_path().to_string(),
                message: shorten(&error.to_string()),
            })
            .collect(),
    )
}

/// A request that has not had its response yet, as the checks saw it.
struct Pending {
    method: String,
    seq: u64,
}

/// The checks' view of one session: the revision in force, the requests waiting for their
/// response, and the compiled validators. Fed frames in record order.
#[derive(Default)]
pub struct Checker {
    revision: Option<&'static str>,
    pending: HashMap<(Direction, RequestId), Pending>,
    /// Pending keys, oldest first (some may have been answered since), to forget the oldest.
    pending_order: VecDeque<(Direction, RequestId, u64)>,
    validators: Validators,
    /// [`passed_key`]s of frames that passed their schema.
    passed: HashSet<u64>,
}

impl Checker {
    pub fn new() -> Checker {
        Checker::default()
    }

    /// The revision the checks follow now, if one is known.
    pub fn revision(&self) -> Option<&'static str> {
        self.revision
    }

    /// Frames were skipped: what was pending may have been answered unseen, so forget it
    /// rather than flag a reuse that was not one.
    pub fn forget_pending(&mut self) {
        self.pending.clear();
        self.pending_order.clear();
    }

    /// Checks one frame; returns the flags to raise on it.
    pub fn check(&mut self, frame: &Frame) -> Vec<Flag> {
        let parseable = matches!(
            frame.verdict,
            Verdict::Request { .. }
                | Verdict::Notification { .. }
                | Verdict::Response { .. }
                | Verdict::Batch { .. }
        );
        if !parseable || frame.truncated_from.is_some() {
            return Vec::new();
        }
        // Text checked once, whole: parsing from bytes checks each string on its own.
        let Some(value) = std::str::from_utf8(&frame.bytes)
            .ok()
            .and_then(|text| serde_json::from_str::<Value>(text).ok())
        else {
            return Vec::new();
        };
        let mut flags = Vec::new();
        let mut violations = Vec::new();
        let mut revision = None;
        match (&frame.verdict, &value) {
            (Verdict::Batch { items }, Value::Array(values)) => {
                for (i, (verdict, item)) in items.iter().zip(values).enumerate() {
                    let (found, rev) = self.check_message(frame, verdict, item, &mut flags);
                    revision = revision.or(rev);
                    violations.extend(found.into_iter().map(|mut v| {
                        v.path = format!("/{i}{}", v.path);
                        v
                    }));
                }
                violations.truncate(MAX_VIOLATIONS + 1);
            }
            (verdict, value) => {
                let (found, rev) = self.check_message(frame, verdict, value, &mut flags);
                revision = rev;
                violations = found;
            }
        }
        if let (Some(revision), false) = (revision, violations.is_empty()) {
            flags.push(Flag::SchemaViolation {
                revision: revision.to_string(),
                violations,
            });
        }
        flags
    }

    /// Checks one message (a frame, or an item of a batch); returns its violations and the
    /// revision they are against.
    fn check_message(
        &mut self,
        frame: &Frame,
        verdict: &Verdict,
        value: &Value,
        flags: &mut Vec<Flag>,
    ) -> (Vec<Violation>, Option<&'static str>) {
        let side = frame.direction;
        let mut answered = None;
        let message = match verdict {
            Verdict::Request { id, method } => {
                self.note_request(side, id, method, frame.seq, flags);
                Message::Request { method }
            }
            Verdict::Notification { method } => Message::Notification { method },
            Verdict::Response { id, is_error } => {
                // A response answers a request that went the other way.
                let other = side.reverse();
                answered = id
                    .as_ref()
                    .and_then(|id| self.pending.remove(&(other, id.clone())));
                if *is_error {
                    Message::Error
                } else {
                    Message::Result {
                        method: answered.as_ref().map(|p| p.method.as_str()),
                    }
                }
            }
            _ => return (Vec::new(), None),
        };
        let revision = self.revision_for(&message, value, answered.as_ref());
        let Some(schema) = revision.and_then(schema_of) else {
            return (Vec::new(), None);
        };
        // A frame of its own (not a batch's item) alike but for its ids to one that passed
        // passes: the schema cannot tell one id from another of the same type.
        let key = std::ptr::eq(verdict, &frame.verdict)
            .then(|| passed_key(revision, &message, verdict, &frame.bytes))
            .flatten();
        if key.is_some_and(|k| self.passed.contains(&k)) {
            return (Vec::new(), revision);
        }
        let found = catch_unwind(AssertUnwindSafe(|| {
            self.validators.check(schema, &message, value)
        }))
        .unwrap_or_default();
        if let (Some(key), true) = (key, found.is_empty()) {
            if self.passed.len() >= MAX_PASSED_SHAPES {
                self.passed.clear();
            }
            self.passed.insert(key);
        }
        (found, revision)
    }

    /// Remembers a request until its response; flags it when its id is one a request of the
    /// same side still waits on.
    fn note_request(
        &mut self,
        side: Direction,
        id: &RequestId,
        method: &str,
        seq: u64,
        flags: &mut Vec<Flag>,
    ) {
        let key = (side, id.clone());
        if let Some(first) = self.pending.get(&key) {
            flags.push(Flag::ReusedRequestId {
                id: id.clone(),
                first_seq: first.seq,
            });
        }
        while self.pending.len() >= MAX_PENDING {
            let Some((d, i, s)) = self.pending_order.pop_front() else {
                break;
            };
            let key = (d, i);
            if self.pending.get(&key).is_some_and(|p| p.seq == s) {
                self.pending.remove(&key);
            }
        }
        self.pending.insert(
            key,
            Pending {
                method: method.to_string(),
                seq,
            },
        );
        self.pending_order.push_back((side, id.clone(), seq));
        if self.pending_order.len() > MAX_PENDING * 4 {
            // Answered requests leave their keys behind; drop the ones no longer pending.
            let pending = &self.pending;
            self.pending_order
                .retain(|(d, i, s)| pending.get(&(*d, i.clone())).is_some_and(|p| p.seq == *s));
        }
    }

    /// The revision `value` is checked against, learning the one in force from the handshake
    /// and from modern requests' `_meta`.
    fn revision_for(
        &mut self,
        message: &Message<'_>,
        value: &Value,
        answered: Option<&Pending>,
    ) -> Option<&'static str> {
        let known = |v: Option<&Value>| {
            v.and_then(Value::as_str)
                .and_then(|v| revisions().find(|r| *r == v))
        };
        if let Some(own) = known(
            value
                .get("params")
                .and_then(|p| p.get("_meta"))
                .and_then(|m| m.get(meta::PROTOCOL_VERSION)),
        ) {
            self.revision = Some(own);
            return Some(own);
        }
        match message {
            Message::Request {
                method: names::INITIALIZE,
            } => {
                if let Some(offered) = known(value.pointer("/params/protocolVersion")) {
                    self.revision = Some(offered);
                }
            }
            Message::Result { .. } if answered.is_some_and(|p| p.method == names::INITIALIZE) => {
                if let Some(accepted) = known(value.pointer("/result/protocolVersion")) {
                    self.revision = Some(accepted);
                }
            }
            _ => {}
        }
        self.revision
    }
}

/// One frame handed to the worker, with how many frames before it were not.
struct Item {
    frame: Arc<Frame>,
    skipped_before: u64,
}

/// Where [`Traffic`](crate::traffic::Traffic) hands frames to the checks. Never blocks.
pub struct Feed {
    tx: SyncSender<Item>,
    /// Frames not checked since the last one handed over.
    skipped: AtomicU64,
    /// Frames handed to the worker, and those it is done with: equal when it is idle.
    queued: AtomicU64,
    done: Arc<Progress>,
    /// Set when the queue was found full; frames are skipped until it is half empty, so a
    /// flood makes a few long gaps (each one `NotChecked` flag), not one every other frame.
    paused: AtomicBool,
}

impl Feed {
    /// Starts the worker; it raises its flags through `raise` and ends when the feed is dropped.
    pub fn start(raise: impl Fn(u64, Flag) + Send + 'static) -> std::io::Result<Feed> {
        let (tx, rx) = sync_channel(QUEUE_FRAMES);
        let done = Arc::new(Progress::default());
        let worker_done = done.clone();
        std::thread::Builder::new()
            .name("protocol-check".into())
            .stack_size(STACK_BYTES)
            .spawn(move || work(rx, raise, &worker_done))?;
        Ok(Feed {
            tx,
            skipped: AtomicU64::new(0),
            queued: AtomicU64::new(0),
            done,
            paused: AtomicBool::new(false),
        })
    }

    /// Queues `frame` for checking, or counts it as not checked when the queue is full.
    pub fn offer(&self, frame: &Arc<Frame>) {
        if self.paused.load(Ordering::Relaxed) {
            // Reading the worker's counter costs a cache miss: a flood's skipped frames look
            // at it once in a while, not each time.
            let look = self
                .skipped
                .load(Ordering::Relaxed)
                .is_multiple_of(RESUME_LOOK_EVERY);
            if !look || self.in_flight() > (QUEUE_FRAMES / 2) as u64 {
                self.skip(1);
                return;
            }
            self.paused.store(false, Ordering::Relaxed);
        }
        let skipped_before = self.skipped.swap(0, Ordering::Relaxed);
        let item = Item {
            frame: frame.clone(),
            skipped_before,
        };
        // Counted before the send, so the worker is never seen done with more than was queued.
        self.queued.fetch_add(1, Ordering::AcqRel);
        match self.tx.try_send(item) {
            Ok(()) => {}
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
                self.queued.fetch_sub(1, Ordering::AcqRel);
                self.paused.store(true, Ordering::Relaxed);
                self.skipped.fetch_add(skipped_before, Ordering::Relaxed);
                self.skip(1);
            }
        }
    }

    /// Frames handed over that the worker has not finished.
    fn in_flight(&self) -> u64 {
        self.queued
            .load(Ordering::Acquire)
            .saturating_sub(self.done.frames.load(Ordering::Acquire))
    }

    /// Counts `n` frames as not checked.
    fn skip(&self, n: u64) {
        self.skipped.fetch_add(n, Ordering::Relaxed);
        self.done.skipped.fetch_add(n, Ordering::Relaxed);
    }

    /// How many frames of the session were recorded but not checked.
    pub fn not_checked(&self) -> u64 {
        self.done.skipped.load(Ordering::Relaxed)
    }

    /// True when every frame handed over has been checked and its flags raised.
    pub fn idle(&self) -> bool {
        self.in_flight() == 0
    }

    /// Waits until the worker is [idle](Feed::idle) or `deadline` passes; true when idle.
    /// Woken by the worker when its queue runs dry, not by polling: a one-shot call waited
    /// out a poll's period after its last frame was checked.
    ///
    /// While someone waits, the worker leaves its flood budget aside: the checks are all that
    /// is left to do, and at a fifth of a core the end of a flood's queue held the CLI's exit
    /// back by about 80 ms.
    pub async fn settled(&self, deadline: tokio::time::Instant) -> bool {
        let _waiting = Waiting::start(&self.done);
        loop {
            let drained = self.done.drained.notified();
            tokio::pin!(drained);
            // Registered before the look, so a drain between the two still wakes this.
            drained.as_mut().enable();
            if self.idle() {
                return true;
            }
            if tokio::time::timeout_at(deadline, drained).await.is_err() {
                return self.idle();
            }
        }
    }
}

/// Counts a caller of [`Feed::settled`] among those waiting while it lives.
struct Waiting<'a>(&'a Progress);

impl<'a> Waiting<'a> {
    fn start(progress: &'a Progress) -> Waiting<'a> {
        progress.waiting.fetch_add(1, Ordering::Relaxed);
        Waiting(progress)
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.waiting.fetch_sub(1, Ordering::Relaxed);
    }
}

/// How far the worker got: the frames it is done with, and a wake-up each time its queue
/// runs dry (for [`Feed::settled`]).
#[derive(Default)]
struct Progress {
    frames: AtomicU64,
    /// Callers of [`Feed::settled`] waiting now: the worker runs at full speed meanwhile.
    waiting: AtomicU64,
    /// Frames not checked in the whole session (the worker keeps to its budget while this grows).
    skipped: AtomicU64,
    drained: tokio::sync::Notify,
}

fn work(rx: Receiver<Item>, raise: impl Fn(u64, Flag), done: &Progress) {
    lower_priority();
    let mut checker = Checker::new();
    let mut budget = Budget::default();
    let next = || match rx.try_recv() {
        Ok(item) => Some(item),
        Err(std::sync::mpsc::TryRecvError::Disconnected) => None,
        Err(std::sync::mpsc::TryRecvError::Empty) => {
            done.drained.notify_waiters();
            // A nap before blocking: a worker blocked in `recv` is woken (a futex system call
            // on the recording thread) by every frame of a steady stream, and a load run's
            // stream is steady; napping, it takes the frames that came meanwhile together.
            std::thread::sleep(NAP);
            match rx.try_recv() {
                Ok(item) => Some(item),
                Err(std::sync::mpsc::TryRecvError::Disconnected) => None,
                Err(std::sync::mpsc::TryRecvError::Empty) => rx.recv().ok(),
            }
        }
    };
    for (n, item) in std::iter::from_fn(next).enumerate() {
        if n % YIELD_EVERY == YIELD_EVERY - 1 {
            std::thread::yield_now();
        }
        if n % budget::LOOK_EVERY == budget::LOOK_EVERY - 1 {
            let owed = budget.look(done.skipped.load(Ordering::Relaxed));
            if !owed.is_zero() && done.waiting.load(Ordering::Relaxed) == 0 {
                std::thread::sleep(owed);
            }
        }
        if item.skipped_before > 0 {
            checker.forget_pending();
            raise(
                item.frame.seq,
                Flag::NotChecked {
                    frames: item.skipped_before,
                },
            );
        }
        for flag in checker.check(&item.frame) {
            raise(item.frame.seq, flag);
        }
        done.frames.fetch_add(1, Ordering::AcqRel);
    }
}

/// Makes the calling thread yield the CPU to the rest of the process when it is short. Linux
/// gives each thread its own nice value; elsewhere the worker keeps the process's priority.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: plain system calls on the calling thread's own id; no memory is passed.
        // A refusal leaves the priority as it was, which is only slower to yield.
        unsafe {
            let tid = libc::gettid();
            libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, WORKER_NICE);
        }
    }
}

#[cfg(test)]
mod tests;
