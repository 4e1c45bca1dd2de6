//! `check`: active checks of a server. Where the protocol checks (`protocol_check`) flag what
//! a session happens to see, a check *asks*: it opens a session per era the server speaks,
//! lists everything, sends the questions a server must answer right (unknown methods, bad
//! params, bogus cursors, unknown tools, resources and prompts), calls the tools it may
//! (read-only ones, and those the user picked), and for stdio watches the process end. Each
//! rule ([`rule::Rule`]) gets a verdict with the frames that show it. Hosts (the CLI's
//! `periscope check`, the app's Check view) render the [`report::CheckReport`] and its
//! exports (`format`). See docs/check.md.

pub mod arguments;
pub mod compare;
pub mod format;
mod http;
mod jsonrpc;
mod lifecycle;
mod lists;
mod probe;
mod process;
mod prompts;
pub mod report;
mod resources;
pub mod rule;
mod surface;
mod tools;
mod utilities;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use futures_util::future::join_all;
use serde::{Deserialize, Serialize};

use crate::config::{HttpMode, HttpTarget, StdioTarget};
use crate::era::{Era, EraChoice};
use crate::session::{ServerIdentity, Session, SessionOptions};
use probe::Probe;
use report::{CheckReport, CheckResult, Counts, EraRecord, NotAsked, Outcome};
use rule::{Applies, Area, Rule};
use surface::{ListKind, Listing};

/// The server to check.
#[derive(Debug, Clone)]
pub enum CheckTarget {
    Stdio(StdioTarget),
    Http { target: HttpTarget, mode: HttpMode },
}

impl CheckTarget {
    /// The target in a line, secrets masked.
    pub fn display(&self) -> String {
        match self {
            CheckTarget::Stdio(t) => t.display(),
            CheckTarget::Http { target, .. } => crate::redact::url(&target.url),
        }
    }
}

/// Which eras to ask in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum EraPick {
    /// Every era the server speaks (both for a server of both eras).
    #[default]
    Auto,
    /// Both, the modern one's rules skipped when the server speaks only legacy.
    Both,
    Modern,
    Legacy,
}

/// Which tools a check may call (a call can change the world: by default only the tools the
/// server marks read-only).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ToolCalls {
    /// Tools to call besides the read-only ones, by name.
    pub named: Vec<String>,
    /// Call every tool.
    pub all: bool,
    /// Call none, not even the read-only ones.
    pub none: bool,
}

/// A rule or an area, as `--only`/`--skip` name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selector {
    Rule(Rule),
    Area(Area),
    /// The audit of what a model receives (docs/audit.md): `--only audit`, `--skip audit`.
    Audit,
}

impl Selector {
    pub fn parse(text: &str) -> Option<Selector> {
        if text == "audit" {
            return Some(Selector::Audit);
        }
        Rule::parse(text).map(Selector::Rule).or_else(|| {
            Area::ALL
                .iter()
                .copied()
                .find(|a| a.id() == text || (text == "jsonrpc" && *a == Area::JsonRpc))
                .map(Selector::Area)
        })
    }

    fn matches(self, rule: Rule) -> bool {
        match self {
            Selector::Rule(r) => r == rule,
            Selector::Area(a) => rule.info().area == a,
            Selector::Audit => false,
        }
    }
}

/// How to check.
#[derive(Clone)]
pub struct CheckOptions {
    /// The sessions' options (client identity, answers to the server's requests, sign-in).
    pub session: SessionOptions,
    pub eras: EraPick,
    pub calls: ToolCalls,
    /// Only these rules or areas (all when empty).
    pub only: Vec<Selector>,
    pub skip: Vec<Selector>,
    /// Where to write the record of the first era's session; a second era's goes beside it
    /// (`<stem>.legacy.<ext>`).
    pub record: Option<PathBuf>,
    /// How long to wait for each answer.
    pub wait: Duration,
    /// How long to wait for a tool call's answer.
    pub call_wait: Duration,
    /// Resources read at most.
    pub max_reads: usize,
}

impl CheckOptions {
    pub fn new(session: SessionOptions) -> CheckOptions {
        CheckOptions {
            session,
            eras: EraPick::Auto,
            calls: ToolCalls::default(),
            only: Vec::new(),
            skip: Vec::new(),
            record: None,
            wait: Duration::from_secs(10),
            call_wait: Duration::from_secs(60),
            max_reads: 20,
        }
    }

    /// Whether `rule` is asked at all.
    pub fn selects(&self, rule: Rule) -> bool {
        (self.only.is_empty() || self.only.iter().any(|s| s.matches(rule)))
            && !self.skip.iter().any(|s| s.matches(rule))
    }

    /// Whether the audit runs: unless skipped, or other rules alone were asked for.
    pub fn audits(&self) -> bool {
        (self.only.is_empty() || self.only.contains(&Selector::Audit))
            && !self.skip.contains(&Selector::Audit)
    }
}

/// What a check says while it runs.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CheckProgress {
    /// A session in `era` is open and being asked.
    Asking { era: Era },
    /// These tools are about to be called in `era` (the read-only ones and those picked).
    WillCall { era: Era, tools: Vec<String> },
    /// A rule has its verdict.
    Judged { result: Box<CheckResult> },
}

/// One era's session and what was found in it, for the rules asked across eras.
pub(crate) struct EraFindings {
    pub era: Era,
    pub lists: HashMap<ListKindKey, Listing>,
    pub calls: Vec<tools::Called>,
}

/// [`ListKind`] as a map key.
pub(crate) type ListKindKey = u8;

pub(crate) fn key(kind: ListKind) -> ListKindKey {
    kind as u8
}

/// What the rules of one era's session read.
pub(crate) struct EraCtx<'a> {
    pub probe: Probe<'a>,
    pub identity: ServerIdentity,
    pub options: &'a CheckOptions,
    /// The frames of the handshake (before the check asked anything).
    pub handshake_frames: Vec<u64>,
    pub lists: HashMap<ListKindKey, Listing>,
    pub progress: Option<tokio::sync::mpsc::Sender<CheckProgress>>,
}

impl EraCtx<'_> {
    pub fn tell(&self, progress: CheckProgress) {
        if let Some(tx) = &self.progress {
            // A host that falls behind misses progress, never results (they are in the report).
            let _ = tx.try_send(progress);
        }
    }

    pub fn era(&self) -> Era {
        self.identity.era
    }

    pub fn listing(&self, kind: ListKind) -> Option<&Listing> {
        self.lists.get(&key(kind))
    }

    /// Whether the server declares (or may have, when its capabilities are unreadable) the
    /// capability of `kind`.
    pub fn declares(&self, kind: ListKind) -> bool {
        let offers = &self.identity.offers;
        offers.unknown
            || match kind {
                ListKind::Tools => offers.tools,
                ListKind::Prompts => offers.prompts,
                ListKind::Resources | ListKind::Templates => offers.resources,
            }
    }

    /// The revision whose schema results are held to.
    pub fn revision(&self) -> &str {
        let v = self.identity.protocol_version.as_str();
        if crate::revision::STATEFUL_VERSIONS.contains(&v)
            || crate::revision::MODERN_VERSIONS.contains(&v)
        {
            v
        } else {
            match self.era() {
                Era::Modern => crate::revision::LATEST_MODERN,
                Era::Legacy => crate::revision::LATEST_STATEFUL,
            }
        }
    }
}

/// Runs a check. Never fails: a server that cannot be reached gives a report that says so.
pub async fn run(
    target: &CheckTarget,
    options: &CheckOptions,
    progress: Option<tokio::sync::mpsc::Sender<CheckProgress>>,
) -> CheckReport {
    let started = Instant::now();
    let started_ms = crate::traffic::wall_now_us() / 1000;
    let tell = |p: CheckProgress| {
        if let Some(tx) = &progress {
            let _ = tx.try_send(p);
        }
    };
    let mut report = CheckReport {
        target: target.display(),
        server: None,
        eras: Vec::new(),
        results: Vec::new(),
        counts: Counts::default(),
        started_ms,
        took_ms: 0,
        unreachable: None,
        audit: None,
    };
    let first_choice = match options.eras {
        EraPick::Auto | EraPick::Both => EraChoice::Auto,
        EraPick::Modern => EraChoice::Modern,
        EraPick::Legacy => EraChoice::Legacy,
    };
    let mut results: Vec<CheckResult> = Vec::new();
    let mut findings: Vec<EraFindings> = Vec::new();
    // The stdio process rules start their own processes: run them beside the sessions.
    let process_rules = process::ask(target, options);
    let sessions = async {
        let first = match open(target, options, first_choice, options.record.as_deref()).await {
            Ok(pair) => pair,
            Err(why) => return Err(why),
        };
        let mut eras = vec![first];
        // A modern server may answer `initialize` too without listing a legacy revision in
        // `server/discover` (the official SDKs list only 2026-07-28): it is asked, and only
        // a refusal says it is modern alone.
        if matches!(options.eras, EraPick::Auto | EraPick::Both) && eras[0].1.era == Era::Modern {
            let record = options.record.as_deref().map(beside);
            match open(target, options, EraChoice::Legacy, record.as_deref()).await {
                Ok(pair) => eras.push(pair),
                Err(why) => tracing::info!("no legacy session beside the modern one: {why}"),
            }
        }
        Ok(eras)
    };
    let (sessions, process_results) = tokio::join!(sessions, process_rules);
    let sessions = match sessions {
        Ok(s) => s,
        Err(why) => return unreachable(report, target, options, why, &tell, started).await,
    };
    report.server = sessions[0].1.info.label();
    for (index, (_, identity)) in sessions.iter().enumerate() {
        tell(CheckProgress::Asking { era: identity.era });
        report.eras.push(EraRecord {
            era: identity.era,
            protocol_version: identity.protocol_version.clone(),
            record: match index {
                0 => options.record.as_deref().map(|p| p.display().to_string()),
                _ => options
                    .record
                    .as_deref()
                    .map(|p| beside(p).display().to_string()),
            },
        });
    }
    // The eras are asked together: their sessions are separate.
    let asked = join_all(
        sessions
            .iter()
            .map(|(session, identity)| ask_era(session, identity, options, progress.clone())),
    )
    .await;
    for (era_results, found) in asked {
        results.extend(era_results);
        findings.push(found);
    }
    // The audit reads the first era's lists: what a host of that era hands its model.
    if options.audits() {
        let items = |kind: ListKind| {
            findings[0]
                .lists
                .get(&key(kind))
                .map_or(&[][..], |l| l.items.as_slice())
        };
        let surface = crate::audit::collect::from_items(
            &report.target,
            &sessions[0].1,
            items(ListKind::Tools),
            items(ListKind::Prompts),
            items(ListKind::Resources),
            items(ListKind::Templates),
        );
        let mut audit = crate::audit::audit(&surface);
        // What the tools the check called gave back: the model would read it next.
        audit.add(findings[0].calls.iter().flat_map(|call| {
            call.result.as_ref().map_or_else(Vec::new, |result| {
                crate::audit::results::lint(&surface.server, &call.name, result)
            })
        }));
        report.audit = Some(audit);
    }
    let spoken: Vec<Era> = sessions.iter().map(|(_, i)| i.era).collect();
    let judge = |rule: Rule, outcome: Outcome, era: Option<Era>| {
        let result = outcome.judge(rule, era);
        tell(CheckProgress::Judged {
            result: Box::new(result.clone()),
        });
        result
    };
    // The rules of an era nobody spoke: skipped, said once.
    for rule in Rule::ALL.iter().copied().filter(|r| options.selects(*r)) {
        let era_missing = match rule.info().applies {
            Applies::Legacy => !spoken.contains(&Era::Legacy),
            Applies::Modern => !spoken.contains(&Era::Modern),
            _ => false,
        };
        if era_missing {
            let why = "the server does not speak the era this rule belongs to";
            results.push(judge(rule, Outcome::skip(NotAsked::OtherEra, why), None));
        }
    }
    for (rule, outcome) in lifecycle::negotiation(target, options, &spoken).await {
        results.push(judge(rule, outcome, Some(Era::Legacy)));
    }
    let http_results = http::ask(target, options, &spoken, sessions[0].0.traffic().clone()).await;
    let stdout_results = process::stdout_only_json(target, sessions.iter().map(|(s, _)| s));
    for (rule, outcome) in tools::across_eras(&findings, options)
        .into_iter()
        .chain(process_results)
        .chain(http_results)
        .chain(stdout_results)
    {
        if options.selects(rule) {
            results.push(judge(rule, outcome, None));
        }
    }
    for (session, _) in &sessions {
        session.close().await;
        let _ = session.traffic().flush();
    }
    results.sort_by_key(|r| {
        (
            Rule::ALL.iter().position(|x| *x == r.rule),
            r.era.map(|e| e == Era::Legacy),
        )
    });
    report.counts = Counts::of(&results);
    report.results = results;
    report.took_ms = started.elapsed().as_millis() as u64;
    report
}

/// The report of a server no session could be opened with: the transport's own rules still
/// say what they can (a protected server's 401, say), recorded nowhere, as there is no session
/// to record them in.
async fn unreachable(
    mut report: CheckReport,
    target: &CheckTarget,
    options: &CheckOptions,
    why: String,
    tell: &impl Fn(CheckProgress),
    started: Instant,
) -> CheckReport {
    let (events, _) = tokio::sync::broadcast::channel(16);
    let traffic = std::sync::Arc::new(crate::traffic::Traffic::new(events));
    let mut results = Vec::new();
    for (rule, outcome) in http::ask(target, options, &[Era::Legacy], traffic).await {
        if matches!(outcome, Outcome::Skip(..)) {
            continue;
        }
        let mut result = outcome.judge(rule, None);
        result.frames.clear();
        tell(CheckProgress::Judged {
            result: Box::new(result.clone()),
        });
        results.push(result);
    }
    report.counts = Counts::of(&results);
    report.results = results;
    report.unreachable = Some(why);
    report.took_ms = started.elapsed().as_millis() as u64;
    report
}

/// `dir/name.jsonl` → `dir/name.legacy.jsonl`: the second era's record.
pub fn beside(path: &Path) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match path.extension() {
        Some(ext) => format!("{stem}.legacy.{}", ext.to_string_lossy()),
        None => format!("{stem}.legacy"),
    };
    path.with_file_name(name)
}

/// Opens a session in `era` and shakes hands.
pub(crate) async fn open(
    target: &CheckTarget,
    options: &CheckOptions,
    era: EraChoice,
    record: Option<&Path>,
) -> Result<(Session, ServerIdentity), String> {
    let mut session_options = options.session.clone();
    session_options.era = era;
    open_with(target, session_options, record).await
}

pub(crate) async fn open_with(
    target: &CheckTarget,
    session_options: SessionOptions,
    record: Option<&Path>,
) -> Result<(Session, ServerIdentity), String> {
    let session = match target {
        CheckTarget::Stdio(t) => Session::spawn_stdio_recorded(t, session_options, record),
        CheckTarget::Http { target, mode } => {
            Session::connect_http(target, *mode, session_options, record)
        }
    }
    .map_err(|e| e.to_string())?;
    match session.handshake().await {
        Ok(identity) => Ok((session, identity)),
        Err(e) => {
            session.close().await;
            Err(e.to_string())
        }
    }
}

/// Asks every per-era rule in one session.
async fn ask_era(
    session: &Session,
    identity: &ServerIdentity,
    options: &CheckOptions,
    progress: Option<tokio::sync::mpsc::Sender<CheckProgress>>,
) -> (Vec<CheckResult>, EraFindings) {
    let handshake_frames = session.traffic().frames().iter().map(|f| f.seq).collect();
    let probe = Probe::new(session, options.wait);
    let mut ctx = EraCtx {
        probe,
        identity: identity.clone(),
        options,
        handshake_frames,
        lists: HashMap::new(),
        progress,
    };
    let declared: Vec<ListKind> = ListKind::ALL
        .into_iter()
        .filter(|k| ctx.declares(*k))
        .collect();
    let listed = join_all(declared.iter().map(|k| surface::list(&ctx.probe, *k))).await;
    for listing in listed {
        ctx.lists.insert(key(listing.kind), listing);
    }
    let era = ctx.era();
    let applies_here = |rule: Rule| match rule.info().applies {
        Applies::Both => true,
        Applies::Legacy => era == Era::Legacy,
        Applies::Modern => era == Era::Modern,
        Applies::Once => false,
    };
    let ctx = &ctx;
    // The areas ask concurrently: each asks with ids of its own, and none changes the server.
    let (lifecycle, jsonrpc, lists, (tool_results, calls), resources, prompts, utilities) = tokio::join!(
        lifecycle::ask(ctx),
        jsonrpc::ask(ctx),
        lists::ask(ctx),
        tools::ask(ctx),
        resources::ask(ctx),
        prompts::ask(ctx),
        utilities::ask(ctx),
    );
    // What reads the whole record waits for the protocol checks to catch up.
    session
        .traffic()
        .checks_settled(Duration::from_secs(5))
        .await;
    let passive = jsonrpc::passive(ctx).into_iter().chain(lists::passive(ctx));
    let mut results = Vec::new();
    for (rule, outcome) in lifecycle
        .into_iter()
        .chain(jsonrpc)
        .chain(lists)
        .chain(tool_results)
        .chain(resources)
        .chain(prompts)
        .chain(utilities)
        .chain(passive)
    {
        if !options.selects(rule) || !applies_here(rule) {
            continue;
        }
        let result = outcome.judge(rule, Some(era));
        ctx.tell(CheckProgress::Judged {
            result: Box::new(result.clone()),
        });
        results.push(result);
    }
    let findings = EraFindings {
        era,
        lists: ctx.lists.clone(),
        calls,
    };
    (results, findings)
}
