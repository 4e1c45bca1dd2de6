//! Runs a load plan: opens the sessions, drives the workload through them closed-loop or at a
//! fixed rate, steps a ramp up until it breaks, samples the server's cost, and writes the
//! report. Nothing is sent before the host calls [`Prepared::run`]: [`prepare`] opens one
//! session and lists the tools so the host can show what will be sent, and to what, first.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::future::join_all;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::{Semaphore, mpsc};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use super::failure::FailureKind;
use super::plan::{LoadPlan, PlanError, RampAxis};
use super::report::{
    BreakingPoint, Crossed, LOAD_REPORT_VERSION, LoadProgress, LoadReport, LoadSample,
    SessionsReport, StepReport, StopReason,
};
use super::resources::{CpuReading, Sampler, Watched, reading};
use super::stats::Recorder;
use super::workload::{LoadRequest, Picker};
use crate::check::{CheckTarget, open_with};

mod lane_loop;
use crate::session::{CallOptions, Session, SessionOptions};
use lane_loop::LaneSet;

/// Entries a load session keeps in memory: the record of a run is its report; each session
/// keeps only its newest frames (for a host to show the end of it).
const LOAD_SESSION_MEMORY: usize = 2_000;
/// Session failures the report names (the rest are counted).
const FAILURES_NAMED: usize = 5;
/// Requests of the first session a sample keeps at most: enough to see a run's pattern in
/// Traffic and on the Timeline, a record file of a few megabytes whatever the run's length.
pub const SAMPLE_REQUESTS: u64 = 10_000;

/// What a host shows, and the user confirms, before a run sends anything.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct LoadSummary {
    /// The server(s), secrets masked.
    pub targets: Vec<String>,
    /// Server processes the run starts (stdio: one a session, the first already running).
    pub processes: u32,
    pub plan: LoadPlan,
    /// Each request in a line, with its weight.
    pub requests: Vec<(String, u32)>,
    /// Tools of the workload the server annotates `destructiveHint: true`.
    pub destructive: Vec<String>,
    /// Tools of the workload the server does not list.
    pub unlisted: Vec<String>,
    /// With several instances: each is asked for its lists, and each request of the workload
    /// once, to compare their answers before the run.
    pub compares_instances: bool,
}

/// One session open and the plan checked: what [`Prepared::summary`] says will happen.
pub struct Prepared {
    targets: Vec<CheckTarget>,
    options: SessionOptions,
    plan: LoadPlan,
    workload: Vec<LoadRequest>,
    first: Session,
    tools: Vec<Value>,
    /// Where the first session records its first requests, if asked.
    sample: Option<PathBuf>,
}

/// Checks the plan, opens the first session (shaking hands) and lists its tools. With
/// `sample`, the first session records to that file (JSON Lines, a recording like any other)
/// from its handshake through its first [`SAMPLE_REQUESTS`] requests: the run's requests for
/// a host to open in Traffic and on the Timeline.
pub async fn prepare(
    targets: Vec<CheckTarget>,
    options: SessionOptions,
    plan: LoadPlan,
    workload: Vec<LoadRequest>,
    sample: Option<&Path>,
) -> Result<Prepared, String> {
    plan.validate().map_err(|e| e.to_string())?;
    if workload.is_empty() {
        return Err(PlanError::EmptyWorkload.to_string());
    }
    let Some(target) = targets.first() else {
        return Err("no server to load".into());
    };
    let (first, _) = open_with(target, options.clone(), sample).await?;
    let tools = if workload.iter().any(|r| r.tool().is_some()) {
        first.list_tools().await.unwrap_or_default()
    } else {
        Vec::new()
    };
    Ok(Prepared {
        targets,
        options,
        plan,
        workload,
        first,
        tools,
        sample: sample.map(Path::to_path_buf),
    })
}

impl Prepared {
    /// What the run will do.
    pub fn summary(&self) -> LoadSummary {
        let listed = |name: &str| {
            self.tools
                .iter()
                .find(|t| t.get("name").and_then(Value::as_str) == Some(name))
        };
        let mut destructive = Vec::new();
        let mut unlisted = Vec::new();
        for tool in self.workload.iter().filter_map(LoadRequest::tool) {
            match listed(tool) {
                Some(t) => {
                    let hint = t.pointer("/annotations/destructiveHint");
                    if hint == Some(&Value::Bool(true)) && !destructive.iter().any(|d| d == tool) {
                        destructive.push(tool.to_string());
                    }
                }
                None if !unlisted.iter().any(|u| u == tool) => unlisted.push(tool.to_string()),
                None => {}
            }
        }
        let stdio = self
            .targets
            .iter()
            .filter(|t| matches!(t, CheckTarget::Stdio(_)))
            .count() as u32;
        LoadSummary {
            targets: self.targets.iter().map(CheckTarget::display).collect(),
            processes: stdio * self.plan.sessions,
            compares_instances: self.targets.len() > 1,
            plan: self.plan.clone(),
            requests: self
                .workload
                .iter()
                .map(|r| (r.describe(), r.weight))
                .collect(),
            destructive,
            unlisted,
        }
    }

    /// The first session, open before the run (a host may show its identity).
    pub fn session(&self) -> &Session {
        &self.first
    }

    /// The tools the server listed (none when the workload calls none).
    pub fn tools(&self) -> &[Value] {
        &self.tools
    }

    /// The workload, as it will be sent.
    pub fn workload(&self) -> &[LoadRequest] {
        &self.workload
    }

    /// Opens the other sessions and runs the plan. `stop` ends it early (requests in flight
    /// are cancelled); `progress` hears about it once a second and at each step.
    pub async fn run(
        self,
        stop: CancellationToken,
        progress: Option<mpsc::Sender<LoadProgress>>,
    ) -> LoadReport {
        let Prepared {
            targets,
            options,
            plan,
            workload,
            first,
            sample,
            ..
        } = self;
        // Each logical client has a session with every instance (one, without several
        // targets): session `c * T + t` is client c's with target t.
        let per_client = targets.len();
        let physical = plan.sessions as usize * per_client;
        let opens = (1..physical).map(|i| {
            let target = &targets[i % per_client];
            let options = options.clone();
            async move { open_with(target, options, None).await.map(|(s, _)| s) }
        });
        let mut slots: Vec<Option<Session>> = vec![Some(first)];
        let mut failed = Vec::new();
        for opened in join_all(opens).await {
            match opened {
                Ok(s) => slots.push(Some(s)),
                Err(e) => {
                    failed.push(e);
                    slots.push(None);
                }
            }
        }
        let opened = slots.iter().flatten().count() as u32;
        failed.dedup();
        failed.truncate(FAILURES_NAMED);
        for s in slots.iter().flatten() {
            s.traffic().keep_newest(LOAD_SESSION_MEMORY);
        }
        let consistency = if per_client > 1 {
            let first_client: Option<Vec<&Session>> =
                slots[..per_client].iter().map(Option::as_ref).collect();
            match first_client {
                Some(instances) => {
                    let shown: Vec<String> = targets.iter().map(CheckTarget::display).collect();
                    Some(super::consistency::compare(&shown, &instances, &workload).await)
                }
                None => None,
            }
        } else {
            None
        };
        let mut sessions: Vec<Session> = Vec::new();
        let mut clients: Vec<Vec<usize>> = Vec::new();
        let mut slots = slots.into_iter();
        for _ in 0..plan.sessions {
            let mut mine = Vec::new();
            for session in slots.by_ref().take(per_client).flatten() {
                mine.push(sessions.len());
                sessions.push(session);
            }
            if !mine.is_empty() {
                clients.push(mine);
            }
        }
        let watched = Watched {
            process_groups: sessions
                .iter()
                .filter_map(Session::server_process)
                .collect(),
            port: targets.iter().find_map(|t| match t {
                CheckTarget::Http { target, .. } => url::Url::parse(&target.url)
                    .ok()
                    .and_then(|u| u.port_or_known_default()),
                CheckTarget::Stdio(_) => None,
            }),
        };
        // One instance a client: each session's requests can go on its lane (a client spread
        // over instances goes through the general path, request by request).
        let mut lanes = Vec::with_capacity(sessions.len());
        for session in &sessions {
            lanes.push(Mutex::new(if per_client == 1 {
                LaneSet::open(session, &workload).await
            } else {
                None
            }));
        }
        let sessions: Vec<Arc<Session>> = sessions.into_iter().map(Arc::new).collect();
        let mut run = Run::new(
            plan.clone(),
            workload.clone(),
            sessions.clone(),
            clients,
            stop,
            progress,
            watched,
        );
        run.lanes = lanes;
        let run = Arc::new(run);
        let outcome = run.drive().await;
        // The lanes close before their sessions: an answer that comes now is flagged as the
        // late or repeated answer it is.
        for lane in &run.lanes {
            drop(lane.lock().unwrap_or_else(|p| p.into_inner()).take());
        }
        let sample = sample.map(|path| {
            let _ = sessions[0].traffic().stop_recording();
            let sent = run.first_sent.load(Ordering::Relaxed);
            LoadSample {
                record: path.display().to_string(),
                requests: sent.min(SAMPLE_REQUESTS),
                cut: sent > SAMPLE_REQUESTS,
                sessions: sessions.len() as u32,
            }
        });
        let closing = sessions.iter().map(|s| s.close());
        join_all(closing).await;
        let elapsed = outcome.elapsed;
        let seconds = elapsed.as_secs_f64();
        let books = run.books.lock().unwrap_or_else(|p| p.into_inner());
        let (series, series_cut) = books.run.series();
        LoadReport {
            version: LOAD_REPORT_VERSION,
            targets: targets.iter().map(CheckTarget::display).collect(),
            plan,
            total: books.run.total(seconds),
            methods: books.run.methods(seconds),
            operations: books.run.operations(seconds),
            workload,
            started: outcome.started,
            elapsed_ms: seconds * 1000.0,
            stopped: outcome.stopped,
            consistency,
            sessions: SessionsReport {
                asked: physical as u32,
                opened,
                failed,
                lost: run
                    .lost
                    .iter()
                    .filter(|l| l.load(Ordering::Relaxed))
                    .count() as u32,
            },
            series: series.to_vec(),
            series_cut,
            resources: books.samples.clone(),
            cpu: outcome.cpu,
            server_peak_rss_bytes: books
                .samples
                .iter()
                .filter_map(|s| s.server_rss_bytes)
                .max(),
            connections_max: books.samples.iter().filter_map(|s| s.connections).max(),
            steps: outcome.steps,
            breaking_point: outcome.breaking_point,
            sample,
        }
    }
}

/// The figures a run keeps as it goes: the whole run's and the current step's.
struct Books {
    run: Recorder,
    step: Recorder,
    samples: Vec<super::resources::ResourceSample>,
}

impl Books {
    /// Where the run is, for the host: counts only (each second's figures are in `point`).
    fn progress(&self, elapsed: Duration, step: Option<(u32, f64)>) -> LoadProgress {
        LoadProgress {
            elapsed_ms: elapsed.as_secs_f64() * 1000.0,
            completed: self.run.completed(),
            failed: self.run.failed(),
            point: self.run.series().0.last().cloned(),
            resources: self.samples.last().cloned(),
            step,
        }
    }
}

/// How a run ended, from [`Run::drive`].
struct Outcome {
    started: String,
    elapsed: Duration,
    stopped: StopReason,
    cpu: super::resources::CpuSplit,
    steps: Vec<StepReport>,
    breaking_point: Option<BreakingPoint>,
}

/// One phase's settings: a whole run, or one step of a ramp.
#[derive(Clone, Copy)]
struct Phase {
    in_flight: u32,
    rate: Option<f64>,
    until: Option<Instant>,
}

/// How a phase ended.
#[derive(Clone, Copy, PartialEq)]
enum PhaseEnd {
    Deadline,
    Budget,
    Stopped,
    SessionsLost,
}

struct Run {
    plan: LoadPlan,
    workload: Arc<Vec<LoadRequest>>,
    sessions: Vec<Arc<Session>>,
    /// Each logical client's sessions (one per instance), by index into `sessions`.
    clients: Vec<Vec<usize>>,
    /// Each client's next instance.
    turns: Vec<AtomicUsize>,
    lost: Arc<Vec<AtomicBool>>,
    stop: CancellationToken,
    progress: Option<mpsc::Sender<LoadProgress>>,
    watched: Watched,
    books: Arc<Mutex<Books>>,
    picker: Arc<Mutex<Picker>>,
    /// Requests sent so far, against the plan's budget.
    sent: Arc<AtomicU64>,
    /// Requests sent on the first session: its record file (a sample, when one was asked
    /// for) stops at [`SAMPLE_REQUESTS`].
    first_sent: Arc<AtomicU64>,
    clock: Instant,
    /// Each session's lane, when it has one (by index into `sessions`): the closed loop's
    /// way to a session (lane_loop.rs); taken by a phase and given back at its end.
    lanes: Vec<Mutex<Option<LaneSet>>>,
}

impl Run {
    fn new(
        plan: LoadPlan,
        workload: Vec<LoadRequest>,
        sessions: Vec<Arc<Session>>,
        clients: Vec<Vec<usize>>,
        stop: CancellationToken,
        progress: Option<mpsc::Sender<LoadProgress>>,
        watched: Watched,
    ) -> Run {
        Run {
            lanes: Vec::new(),
            turns: clients.iter().map(|_| AtomicUsize::new(0)).collect(),
            clients,
            books: Arc::new(Mutex::new(Books {
                run: Recorder::new(&workload),
                step: Recorder::new(&workload),
                samples: Vec::new(),
            })),
            picker: Arc::new(Mutex::new(Picker::new(&workload))),
            lost: Arc::new(sessions.iter().map(|_| AtomicBool::new(false)).collect()),
            workload: Arc::new(workload),
            sessions,
            plan,
            stop,
            progress,
            watched,
            sent: Arc::new(AtomicU64::new(0)),
            first_sent: Arc::new(AtomicU64::new(0)),
            clock: Instant::now(),
        }
    }

    async fn drive(self: &Arc<Self>) -> Outcome {
        let started = time::OffsetDateTime::now_utc()
            .format(&time::format_description::well_known::Rfc3339)
            .unwrap_or_default();
        let clock = self.clock;
        let sampler = Sampler::new(self.watched.clone(), clock.elapsed());
        let cpu_start: CpuReading = reading(&self.watched).0;
        let (ticker, sampling) = self.ticker(sampler);
        let mut steps = Vec::new();
        let mut breaking_point = None;
        let stopped = match self.plan.ramp.clone() {
            None => {
                let phase = Phase {
                    in_flight: self.plan.in_flight,
                    rate: self.plan.rate,
                    until: self
                        .plan
                        .duration_ms
                        .map(|ms| clock + Duration::from_millis(ms)),
                };
                match self.phase(phase).await {
                    PhaseEnd::Deadline => StopReason::Duration,
                    PhaseEnd::Budget
                        if self.plan.count.is_some_and(|c| c <= self.plan.max_requests) =>
                    {
                        StopReason::Count
                    }
                    PhaseEnd::Budget => StopReason::Cap,
                    PhaseEnd::Stopped => StopReason::Stopped,
                    PhaseEnd::SessionsLost => StopReason::SessionsLost,
                }
            }
            Some(ramp) => {
                let mut reason = StopReason::RampDone;
                for index in 0..ramp.steps {
                    let level = ramp.level(index);
                    let step_started = Instant::now();
                    let cpu_before = reading(&self.watched).0;
                    let phase = Phase {
                        in_flight: match ramp.axis {
                            RampAxis::Concurrency => (level.round() as u32).max(1),
                            RampAxis::Rate => self.plan.in_flight,
                        },
                        rate: match ramp.axis {
                            RampAxis::Concurrency => None,
                            RampAxis::Rate => Some(level),
                        },
                        until: Some(step_started + Duration::from_millis(ramp.step_ms)),
                    };
                    self.announce(Some((index + 1, level)));
                    let end = self.phase(phase).await;
                    let took = step_started.elapsed();
                    let cpu = reading(&self.watched).0.since(cpu_before);
                    let total = {
                        let mut books = self.books.lock().unwrap_or_else(|p| p.into_inner());
                        let total = books.step.total(took.as_secs_f64());
                        books.step = Recorder::new(&self.workload);
                        total
                    };
                    let crossed = if total.completed == 0 {
                        None
                    } else if total.error_rate_pct > ramp.max_error_rate_pct {
                        Some(Crossed::ErrorRate {
                            measured_pct: total.error_rate_pct,
                            limit_pct: ramp.max_error_rate_pct,
                        })
                    } else {
                        match (ramp.max_p99_ms, total.latency) {
                            (Some(limit), Some(l)) if l.p99_ms > limit => Some(Crossed::P99 {
                                measured_ms: l.p99_ms,
                                limit_ms: limit,
                            }),
                            _ => None,
                        }
                    };
                    steps.push(StepReport {
                        step: index + 1,
                        level,
                        elapsed_ms: took.as_secs_f64() * 1000.0,
                        total,
                        crossed,
                        cpu,
                    });
                    if let Some(crossed) = crossed {
                        breaking_point = Some(BreakingPoint {
                            axis: ramp.axis,
                            step: index + 1,
                            level,
                            crossed,
                            last_good_level: index.checked_sub(1).map(|i| ramp.level(i)),
                        });
                        reason = StopReason::BreakingPoint;
                        break;
                    }
                    match end {
                        PhaseEnd::Deadline => {}
                        PhaseEnd::Budget => {
                            reason = StopReason::Cap;
                            break;
                        }
                        PhaseEnd::Stopped => {
                            reason = StopReason::Stopped;
                            break;
                        }
                        PhaseEnd::SessionsLost => {
                            reason = StopReason::SessionsLost;
                            break;
                        }
                    }
                }
                reason
            }
        };
        ticker.cancel();
        // The last, partial second is sampled too: a run shorter than a second has one sample.
        if let Ok(mut sampler) = sampling.await {
            let sample = sampler.sample(clock.elapsed());
            self.books
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .samples
                .push(sample);
        }
        let elapsed = clock.elapsed();
        let cpu = reading(&self.watched).0.since(cpu_start);
        {
            let mut books = self.books.lock().unwrap_or_else(|p| p.into_inner());
            // The last, partial second is a point too.
            books
                .run
                .close_seconds_before(elapsed + Duration::from_secs(1));
        }
        self.announce(None);
        Outcome {
            started,
            elapsed,
            stopped,
            cpu,
            steps,
            breaking_point,
        }
    }

    /// Says where the run is (once a second from the ticker; at each step from the ramp).
    fn announce(&self, step: Option<(u32, f64)>) {
        let Some(tx) = &self.progress else { return };
        let books = self.books.lock().unwrap_or_else(|p| p.into_inner());
        let _ = tx.try_send(books.progress(self.clock.elapsed(), step));
    }

    /// Closes each second, samples the servers' cost and tells the host, once a second.
    /// Stopped by the token it returns; its task gives the sampler back.
    fn ticker(
        &self,
        mut sampler: Sampler,
    ) -> (CancellationToken, tokio::task::JoinHandle<Sampler>) {
        let done = CancellationToken::new();
        let books = self.books.clone();
        let progress = self.progress.clone();
        let clock = self.clock;
        let until = done.clone();
        let task = tokio::spawn(async move {
            let mut tick = tokio::time::interval_at(
                tokio::time::Instant::from_std(clock + Duration::from_secs(1)),
                Duration::from_secs(1),
            );
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = until.cancelled() => break,
                    _ = tick.tick() => {}
                }
                let at = clock.elapsed();
                let sample = sampler.sample(at);
                let mut b = books.lock().unwrap_or_else(|p| p.into_inner());
                b.run.close_seconds_before(at);
                b.samples.push(sample);
                if let Some(tx) = &progress {
                    let _ = tx.try_send(b.progress(at, None));
                }
            }
            sampler
        });
        (done, task)
    }

    /// The workload's next request, by index.
    fn next_index(&self) -> usize {
        self.picker
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .next_index()
            .unwrap_or(0)
    }

    /// How a run's request is sent on the general path: the plan's timeout, Stop's token,
    /// never from the cache.
    fn call_options(&self) -> CallOptions {
        CallOptions {
            timeout: Some(self.plan.timeout()),
            cancel: Some(self.stop.child_token()),
            fresh: true,
            ..CallOptions::default()
        }
    }

    /// One more request may go: false once the plan's budget is spent.
    fn ticket(&self) -> bool {
        self.sent.fetch_add(1, Ordering::Relaxed) < self.plan.request_budget()
    }

    fn lost(&self, s: usize) -> bool {
        self.lost[s].load(Ordering::Relaxed)
    }

    /// The clients with a session still open.
    fn alive(&self) -> Vec<usize> {
        (0..self.clients.len())
            .filter(|c| self.clients[*c].iter().any(|s| !self.lost(*s)))
            .collect()
    }

    /// Client `c`'s next open session, round robin over its instances.
    fn session_of(&self, c: usize) -> usize {
        let mine = &self.clients[c];
        for _ in 0..mine.len() {
            let s = mine[self.turns[c].fetch_add(1, Ordering::Relaxed) % mine.len()];
            if !self.lost(s) {
                return s;
            }
        }
        mine[0]
    }

    /// A request task: sends the workload's next request on client `c`'s next session,
    /// records how it went (latency from `due` in the open loop, from the send in the closed
    /// loop).
    fn request(&self, c: usize, due: Option<Instant>) -> impl Future<Output = ()> + Send + 'static {
        let s = self.session_of(c);
        let index = self.next_index();
        let session = self.sessions[s].clone();
        // The sample ends here: the requests after it, and the answers to those still in
        // flight, are not in the file (the report says the sample was cut).
        if s == 0 && self.first_sent.fetch_add(1, Ordering::Relaxed) == SAMPLE_REQUESTS {
            // At once, before this request goes: the file's writer drains its queue (a few
            // milliseconds, once a run). A request another worker of the session sends in that
            // moment may still be in the file.
            let _ = session.traffic().stop_recording();
        }
        let workload = self.workload.clone();
        let books = self.books.clone();
        let lost = self.lost.clone();
        let clock = self.clock;
        let options = self.call_options();
        async move {
            let request = &workload[index];
            let sent = Instant::now();
            let answer = session
                .request(&request.method, request.params.clone(), options)
                .await;
            let failure = match &answer {
                Ok(result) => FailureKind::of_result(&request.method, result),
                Err(e) => match FailureKind::of(e) {
                    Some(kind) => Some(kind),
                    // Cancelled by Stop: not the server's doing, and not counted.
                    None => return,
                },
            };
            if failure == Some(FailureKind::SessionLost) {
                lost[s].store(true, Ordering::Relaxed);
            }
            let latency = due.unwrap_or(sent).elapsed();
            let mut b = books.lock().unwrap_or_else(|p| p.into_inner());
            let at = clock.elapsed();
            b.run.record(index, at, latency, failure);
            b.step.record(index, at, latency, failure);
        }
    }

    async fn phase(self: &Arc<Self>, phase: Phase) -> PhaseEnd {
        match phase.rate {
            None => self.closed_loop(phase).await,
            Some(rate) => self.open_loop(phase, rate).await,
        }
    }

    /// Each session's `in_flight` workers send their next request when the last is answered.
    async fn closed_loop(self: &Arc<Self>, phase: Phase) -> PhaseEnd {
        let out_of_budget = Arc::new(AtomicBool::new(false));
        let mut workers = JoinSet::new();
        for c in self.alive() {
            let lane = match self.clients[c][..] {
                [s] => self.lanes[s]
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .take()
                    .map(|set| (s, set)),
                _ => None,
            };
            if let Some((s, set)) = lane {
                let me = self.clone();
                let out = out_of_budget.clone();
                workers.spawn(async move {
                    let set = me.lane_loop(s, set, phase, &out).await;
                    *me.lanes[s].lock().unwrap_or_else(|p| p.into_inner()) = Some(set);
                });
                continue;
            }
            for _ in 0..phase.in_flight {
                let me = self.clone();
                let out = out_of_budget.clone();
                workers.spawn(async move {
                    loop {
                        if me.stop.is_cancelled()
                            || me.clients[c].iter().all(|s| me.lost(*s))
                            || phase.until.is_some_and(|u| Instant::now() >= u)
                        {
                            break;
                        }
                        if !me.ticket() {
                            out.store(true, Ordering::Relaxed);
                            break;
                        }
                        me.request(c, None).await;
                    }
                });
            }
        }
        while workers.join_next().await.is_some() {}
        self.phase_end(out_of_budget.load(Ordering::Relaxed))
    }

    /// Requests go out on schedule, `rate` a second, round robin over the live sessions; one
    /// waits for a place when its session already has `in_flight` out, and its latency counts
    /// from when it was due (coordinated omission corrected).
    async fn open_loop(&self, phase: Phase, rate: f64) -> PhaseEnd {
        let places: Vec<Arc<Semaphore>> = self
            .clients
            .iter()
            .map(|_| Arc::new(Semaphore::new(phase.in_flight as usize)))
            .collect();
        let interval = Duration::from_secs_f64(1.0 / rate);
        let start = Instant::now();
        let mut requests = JoinSet::new();
        let mut out_of_budget = false;
        let mut n: u32 = 0;
        let mut turn = 0usize;
        loop {
            let due = start + interval.mul_f64(f64::from(n));
            if phase.until.is_some_and(|u| due >= u) || self.stop.is_cancelled() {
                break;
            }
            let alive = self.alive();
            if alive.is_empty() {
                break;
            }
            if !self.ticket() {
                out_of_budget = true;
                break;
            }
            if due > Instant::now() {
                tokio::select! {
                    _ = self.stop.cancelled() => break,
                    _ = tokio::time::sleep_until(tokio::time::Instant::from_std(due)) => {}
                }
            }
            let c = alive[turn % alive.len()];
            turn += 1;
            let place = tokio::select! {
                _ = self.stop.cancelled() => break,
                p = places[c].clone().acquire_owned() => p,
            };
            let Ok(place) = place else { break };
            let request = self.request(c, Some(due));
            requests.spawn(async move {
                request.await;
                drop(place);
            });
            // Reap what is done so the set stays as small as what is in flight.
            while requests.try_join_next().is_some() {}
            n = n.saturating_add(1);
        }
        while requests.join_next().await.is_some() {}
        self.phase_end(out_of_budget)
    }

    fn phase_end(&self, out_of_budget: bool) -> PhaseEnd {
        if self.stop.is_cancelled() {
            PhaseEnd::Stopped
        } else if self.alive().is_empty() {
            PhaseEnd::SessionsLost
        } else if out_of_budget {
            PhaseEnd::Budget
        } else {
            PhaseEnd::Deadline
        }
    }
}
