//! `periscope`: the Periscope engine on the command line.
//!
//! Shape: `periscope <action> [options] -- <command> [args...]`. The server command comes last,
//! after `--`, and is split off before option parsing so its own flags never clash with ours.

/// `println!` that ends the program quietly when stdout is gone (`periscope … | head`),
/// instead of panicking. SIGPIPE stays ignored, so a dead server's pipe is an error, not death.
/// Every line goes through `terminal::safe`: much of what is printed is the server's text.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let line = format!($($arg)*);
        if writeln!(std::io::stdout(), "{}", $crate::terminal::safe(&line)).is_err() {
            std::process::exit(0);
        }
    }};
}

/// `eprintln!` through `terminal::safe`: errors and warnings quote the server (its error
/// messages, stderr lines, log notifications, frames).
macro_rules! tell {
    ($($arg:tt)*) => {{
        let line = format!($($arg)*);
        eprintln!("{}", $crate::terminal::safe(&line));
    }};
}

mod answers;
mod app_data;
mod args;
mod audit_command;
mod auth;
mod browser;
mod check_command;
mod conformance;
mod diff_command;
mod eval_command;
mod event_printer;
mod exit;
mod hints;
mod host_command;
mod listen;
mod load_command;
mod open_app;
mod open_command;
mod output;
mod recording_command;
mod replay_command;
mod saved_command;
mod secrets;
mod skills_command;
mod task_command;
mod terminal;

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use periscope_core::config::{EraChoice, HttpTarget, ServerTarget, StdioTarget};
use periscope_core::doctor::{self, Scene};
use periscope_core::saved_calls::{CallKind, request_arguments};
use periscope_core::session::{CallOptions, Session, SessionOptions};
use periscope_core::traffic::MEMORY_BUDGET;
use periscope_core::wire::Direction;
use serde_json::{Map, Value};

/// Progress notifications waiting to be printed; past this, the printer skips to newer ones.
const PROGRESS_BACKLOG: usize = 256;
use tokio_util::sync::CancellationToken;

use args::{
    Action, Cli, EvalAction, Format, PromptsAction, ResourcesAction, SavedAction, ToolsAction,
    TransportChoice,
};
use exit::Exit;
use periscope_core::transport::TransportKind;
use periscope_core::transport::http::HttpMode;

// mimalloc: under a flood, glibc malloc's arena locks took a third of the engine's CPU
// (docs/engine.md, "Allocator").
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().collect();
    let (ours, server) = match argv.iter().position(|a| a == "--") {
        Some(i) => (argv[..i].to_vec(), argv[i + 1..].to_vec()),
        None => (argv, Vec::new()),
    };
    let (mut cli, verbose) = parse(ours);
    if let Err(e) = args::settle_format(&mut cli) {
        tell!("periscope: {e}");
        return Exit::Usage.into();
    }
    if let Action::Check {
        list_rules: true, ..
    } = cli.action
    {
        return check_command::list_rules(cli.format).into();
    }
    if let Action::Audit {
        list_rules: true, ..
    } = cli.action
    {
        return audit_command::list_rules(cli.format).into();
    }
    if let Err(e) = secrets::read_into(&mut cli) {
        eprintln!("periscope: {e}");
        return Exit::Usage.into();
    }
    // Import and export read files and the app's catalog; no server.
    match &cli.action {
        Action::Import { detect: true, .. } => return host_command::detect(cli.format).into(),
        Action::Import {
            file: Some(file),
            from,
            ..
        } => return host_command::import(file, *from, cli.format).into(),
        Action::Export { to, servers } => {
            return host_command::export(*to, servers, cli.format).into();
        }
        Action::Recording(action) => return recording_command::run(action).into(),
        Action::Open { file, print } => return open_command::run(file, *print, cli.format).into(),
        Action::Eval(EvalAction::Compare { before, after }) => {
            return eval_command::compare_runs(before, after, cli.format).into();
        }
        Action::Diff {
            first,
            second,
            fail_on,
        } => {
            return diff_command::run(first, second.as_ref(), *fail_on, cli.format).into();
        }
        // The desktop app connects, not this process.
        Action::OpenApp => {
            return open_app::run(cli.url.first().map(String::as_str), &server).into();
        }
        _ => {}
    }
    // `saved list` reads the app's file and needs no server.
    if let Action::Saved(SavedAction::List { server }) = &cli.action {
        return saved_command::list(cli.format, server.as_deref()).into();
    }
    let url = match &cli.action {
        Action::ConformanceClient { url } => Some(url.clone()),
        _ => cli.url.first().cloned(),
    };
    if cli.url.len() > 1 && !matches!(cli.action, Action::Load(_)) {
        tell!(
            "periscope: several --url are for `periscope load` only (the instances of one server)"
        );
        return Exit::Usage.into();
    }
    let target = match (&url, server.split_first()) {
        (Some(_), Some(_)) => {
            tell!("periscope: give either --url or a command after `--`, not both");
            return Exit::Usage.into();
        }
        (Some(url), None) => Target::Http(HttpTarget {
            url: url.clone(),
            headers: cli.header.clone(),
            secret_headers: cli.secret_headers.clone(),
            ..HttpTarget::default()
        }),
        (None, Some((command, server_args))) => Target::Stdio(StdioTarget {
            command: command.clone(),
            args: server_args.to_vec(),
            env: cli.env.clone(),
            cwd: cli.cwd.clone(),
            secret_env: cli.secret_env.clone(),
            inherit_env: cli.inherit_env,
        }),
        // `saved run` without a server: the one the call was saved for, from the app's catalog.
        (None, None) if matches!(cli.action, Action::Saved(SavedAction::Run { .. })) => {
            let Action::Saved(SavedAction::Run { name, server }) = &cli.action else {
                unreachable!()
            };
            let found = saved_command::find(name, server.as_deref())
                .and_then(|call| saved_command::catalog_entry(&call.server_id))
                .and_then(|entry| secrets::resolve_entry(&entry));
            match found {
                Ok(ServerTarget::Stdio(t)) => Target::Stdio(StdioTarget {
                    inherit_env: t.inherit_env || cli.inherit_env,
                    ..t
                }),
                Ok(ServerTarget::Http { target, .. }) => Target::Http(target),
                Err(e) => {
                    tell!("periscope: {e}");
                    return Exit::Usage.into();
                }
            }
        }
        (None, None) => {
            tell!(
                "periscope: no server given. Put the server command last, after `--`, or give --url:\n  periscope tools list -- npx -y @modelcontextprotocol/server-everything\n  periscope tools list --url http://127.0.0.1:3001/mcp"
            );
            return Exit::Usage.into();
        }
    };
    // One thread: a command's tasks (the transport's reader, the dispatcher, the printer) hand
    // each other every frame, and across two workers each hand-off cost a wake-up system call;
    // the record file's writer and the protocol checks have threads of their own.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("the tokio runtime starts");
    if let Action::Check { .. } = cli.action {
        // A check opens the sessions it needs itself.
        return runtime
            .block_on(async {
                let options = session_options(&cli, &target).await;
                check_command::run(&cli, target, options).await
            })
            .into();
    }
    if let Action::Load(_) = cli.action {
        // A load run opens its sessions itself.
        return runtime
            .block_on(async {
                let options = session_options(&cli, &target).await;
                load_command::run(&cli, target, options).await
            })
            .into();
    }
    runtime.block_on(run(cli, target, verbose)).into()
}

/// `-v`, `--verbose`: also say what is normal but worth knowing (auto's fallback to
/// `initialize`). Added here, beside the derived options, so the flag's one use sits with it.
const VERBOSE: &str = "verbose";

/// The command line, and whether `-v` was given.
fn parse(argv: Vec<String>) -> (Cli, bool) {
    use clap::{CommandFactory, FromArgMatches};
    let command = Cli::command().arg(
        clap::Arg::new(VERBOSE)
            .short('v')
            .long(VERBOSE)
            .global(true)
            .action(clap::ArgAction::SetTrue)
            .help("Also say what is normal but worth knowing (e.g. the fallback to initialize)"),
    );
    let mut matches = command.get_matches_from(argv);
    let verbose = matches.get_flag(VERBOSE);
    let cli = Cli::from_arg_matches_mut(&mut matches).unwrap_or_else(|e| e.exit());
    (cli, verbose)
}

/// What to connect to: a local command or a URL.
enum Target {
    Stdio(StdioTarget),
    Http(HttpTarget),
}

/// `--transport` as the engine's HTTP mode.
fn http_mode(choice: TransportChoice) -> HttpMode {
    match choice {
        TransportChoice::Auto => HttpMode::Auto,
        TransportChoice::Streamable => HttpMode::Streamable,
        TransportChoice::Sse => HttpMode::LegacySse,
    }
}

impl Target {
    /// The target as the commands that open their own sessions (check, load) take it.
    fn into_engine(self, transport: TransportChoice) -> periscope_core::check::CheckTarget {
        use periscope_core::check::CheckTarget;
        match self {
            Target::Stdio(t) => CheckTarget::Stdio(t),
            Target::Http(t) => CheckTarget::Http {
                target: t,
                mode: http_mode(transport),
            },
        }
    }

    fn display(&self) -> String {
        match self {
            Target::Stdio(t) => t.display(),
            Target::Http(t) => periscope_core::redact::url(&t.url),
        }
    }

    /// What the doctor reads a failure against (the server's identity once known).
    fn scene(&self) -> Scene {
        match self {
            Target::Stdio(t) => Scene::Stdio {
                target: t.clone(),
                identity: None,
            },
            Target::Http(t) => Scene::Http {
                url: t.url.clone(),
                identity: None,
            },
        }
    }
}

/// The entries of each kind (frames, stderr lines, exchanges, flags) a CLI session keeps in
/// memory. It reads back none but the newest (`raw` keeps more while it waits), and a window
/// that stays in the CPU's cache is cheap to keep: under a flood, dropping the frame that left
/// a 10 000-frame window was a cache miss each time, about a seventh of the session's CPU.
const SESSION_WINDOW: usize = 512;

/// The sessions' options from the command line: the answers to the server's requests, the
/// patience, the era, and for a URL the sign-in.
async fn session_options(cli: &Cli, target: &Target) -> SessionOptions {
    let mut options = SessionOptions {
        request_timeout: Duration::from_secs_f64(cli.timeout),
        handler: Arc::new(answers::AnswersByFlags::from_cli(cli)),
        ..SessionOptions::default()
    };
    if let Some(v) = &cli.protocol_version {
        options.protocol_version = v.clone();
    }
    // With -q the server's notifications are shown only by `listen`, which prints them as its
    // output; elsewhere none is shown, so none is announced.
    options.notification_events = !cli.quiet || matches!(cli.action, Action::Listen { .. });
    options.era = match cli.era {
        args::EraArg::Auto | args::EraArg::Both => EraChoice::Auto,
        args::EraArg::Modern => EraChoice::Modern,
        args::EraArg::Legacy => EraChoice::Legacy,
    };
    if let Target::Http(t) = &target {
        // A server that answers 401 gets a sign-in; anything else never sees the authorizer.
        if let Action::ConformanceClient { .. } = cli.action {
            options.authorizer = Some(auth::for_conformance(&t.url));
        } else {
            let client = auth::for_cli(cli, &t.url);
            if cli.sign_out
                && let Err(e) = client.sign_out().await
            {
                tell!("periscope: could not forget the stored sign-in: {e}");
            }
            options.authorizer = Some(client);
        }
    }
    if let Action::ConformanceClient { .. } = cli.action {
        options.handler = Arc::new(conformance::AcceptDefaults);
        // The suite says which revision a scenario expects; without a word, auto.
        if let Some(era) = conformance::era_for_scenario() {
            options.era = era;
        }
    }
    options
}

async fn run(cli: Cli, target: Target, verbose: bool) -> Exit {
    let options = session_options(&cli, &target).await;
    let record = cli.record.as_deref();
    let session = match &target {
        Target::Stdio(t) => Session::spawn_stdio_recorded(t, options, record),
        Target::Http(t) => Session::connect_http(t, http_mode(cli.transport), options, record),
    };
    let session = match session {
        Ok(s) => s,
        Err(e) => {
            tell!("periscope: {e}");
            let found = match &target {
                Target::Stdio(t) => doctor::after_start(&e, t),
                Target::Http(_) => Vec::new(),
            };
            hints::tell_all(&found);
            if cli.format == Format::Json && !found.is_empty() {
                say!(
                    "{}",
                    output::pretty(&serde_json::json!({
                        "error": {"message": e.to_string()},
                        "diagnoses": found,
                    }))
                );
            }
            return Exit::Connect;
        }
    };
    // Nothing the CLI does asks for the past beyond the newest frames, so a session that
    // runs long (`listen`, a flood) keeps only those in memory; `--record` still gets all.
    session.traffic().keep_newest(SESSION_WINDOW);
    let mut printer = tokio::spawn(event_printer::print_events(
        session.subscribe_from_start(),
        cli.quiet,
        verbose,
        record.is_some(),
    ));
    let exit = match session.handshake().await {
        Ok(identity) => {
            // Warnings (e.g. an unknown protocol version) arrive as events: printed there.
            if identity.transport == TransportKind::LegacySse && !cli.quiet {
                tell!(
                    "periscope: the server speaks the legacy {} transport (2024-11-05)",
                    identity.transport
                );
            }
            let scene = target.scene().with_identity(Some(identity));
            act(&cli, &session, scene, &target.display()).await
        }
        Err(e) => {
            tell!(
                "periscope: could not initialize `{}`: {e}",
                target.display()
            );
            let mut found = doctor::after_failure(&e, &target.scene());
            doctor::probe_paths(&mut found).await;
            hints::tell_all(&found);
            if cli.format == Format::Json {
                output::print_failure(&e, &found);
            }
            match output::exit_for(&e) {
                Exit::Timeout => Exit::Timeout,
                Exit::Protocol => Exit::Protocol,
                _ => Exit::Connect,
            }
        }
    };
    // The protocol checks run behind the session, at a lower priority: their last findings
    // are shown and recorded too (a few seconds at most, on a machine short of CPU).
    session
        .traffic()
        .checks_settled(Duration::from_secs(3))
        .await;
    session.close().await;
    let not_checked = session.traffic().not_checked();
    if not_checked > 0 {
        tell!(
            "periscope: {not_checked} frames were recorded but not checked against the protocol schema (the checks fell behind)"
        );
    }
    if let Err(e) = session.traffic().flush() {
        tell!("periscope: the record file is incomplete: {e}");
    }
    // Let the printer catch up with what the server sent up to its end (a duplicate response
    // read just before the server exited is still warned about): dropping the session closes
    // the event feed once it is drained. A second at most.
    drop(session);
    if tokio::time::timeout(Duration::from_secs(1), &mut printer)
        .await
        .is_err()
    {
        printer.abort();
    }
    exit
}

/// `target`: the server as a line (its command or URL, secrets masked).
async fn act(cli: &Cli, session: &Session, scene: Scene, target: &str) -> Exit {
    let out = output::Output::new(cli.format)
        .with_scene(scene)
        .full(cli.full);
    match &cli.action {
        // Listed as the server sent them; a tool Periscope will not call is named, with the
        // reason, in a warning (printed by the event printer).
        Action::Tools(ToolsAction::List) => out.list(session.list_tools().await, output::tool_line),
        Action::Tools(ToolsAction::Call {
            name,
            args,
            args_file,
            arg,
            task,
        }) => {
            let arguments = match args_file {
                Some(file) => saved_command::file_arguments(file, arg),
                None => args::tool_arguments(args.as_deref(), arg),
            };
            let arguments = match arguments {
                Ok(a) => a,
                Err(e) => {
                    tell!("periscope: {e}");
                    return Exit::Usage;
                }
            };
            if *task {
                return task_command::call_as_task(session, &out, name, arguments).await;
            }
            call_tool(session, &out, target, name, arguments).await
        }
        Action::Resources(ResourcesAction::List) => {
            out.list(session.list_resources().await, output::resource_line)
        }
        Action::Resources(ResourcesAction::Templates) => out.list(
            session.list_resource_templates().await,
            output::template_line,
        ),
        Action::Resources(ResourcesAction::Read { uri }) => out.result(
            session.read_resource(uri).await,
            output::print_resource_contents,
        ),
        Action::Prompts(PromptsAction::List) => {
            out.list(session.list_prompts().await, output::prompt_line)
        }
        Action::Prompts(PromptsAction::Get { name, arg }) => {
            let arguments: Map<String, Value> = arg
                .iter()
                .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                .collect();
            out.result(
                session.get_prompt(name, arguments).await,
                output::print_prompt,
            )
        }
        Action::Skills(action) => skills_command::run(session, action, &out).await,
        Action::Ping => out.result(session.ping().await, |_| say!("pong")),
        Action::Listen {
            tools,
            prompts,
            resources,
            resource,
            duration,
        } => {
            let asked = listen::Asked {
                tools: *tools,
                prompts: *prompts,
                resources: *resources,
                resource,
                duration: *duration,
            };
            listen::run(session, asked, cli.format, cli.quiet).await
        }
        Action::Info => {
            // The handshake succeeded, so the identity is there.
            let identity = session.identity();
            let json = serde_json::to_value(&identity).unwrap_or(Value::Null);
            out.result(Ok(json), |_| {
                if let Some(identity) = &identity {
                    output::print_identity(identity)
                }
            })
        }
        Action::Saved(SavedAction::Run { name, server }) => {
            let call = match saved_command::find(name, server.as_deref()) {
                Ok(c) => c,
                Err(e) => {
                    tell!("periscope: {e}");
                    return Exit::Usage;
                }
            };
            if !cli.quiet {
                tell!(
                    "periscope: running {:?}: {}",
                    call.name,
                    saved_command::describe(&call)
                );
            }
            let arguments = request_arguments(call.kind, &call.arguments);
            match call.kind {
                CallKind::Tool => call_tool(session, &out, target, &call.target, arguments).await,
                CallKind::Resource => out.result(
                    session.read_resource(&call.target).await,
                    output::print_resource_contents,
                ),
                CallKind::Prompt => out.result(
                    session.get_prompt(&call.target, arguments).await,
                    output::print_prompt,
                ),
            }
        }
        // Handled in `main`, before any server.
        Action::Saved(SavedAction::List { .. })
        | Action::Import { .. }
        | Action::Export { .. }
        | Action::Recording(_)
        | Action::Open { .. }
        | Action::Diff { .. }
        | Action::Check { .. }
        | Action::Load(_)
        | Action::OpenApp => Exit::Ok,
        Action::Raw { json } => raw(cli, session, json).await,
        Action::Replay { file, ignore } => {
            replay_command::run(session, file, ignore, cli.timeout, cli.format).await
        }
        Action::ConformanceClient { .. } => conformance::run(session).await,
        Action::Audit { .. } => audit_command::run(cli, session, target).await,
        Action::Eval(EvalAction::Init) => eval_command::init(session, target).await,
        Action::Eval(EvalAction::Run(args)) => eval_command::run(cli, args, session, target).await,
        // Handled in `main`, before any server.
        Action::Eval(EvalAction::Compare { .. }) => Exit::Ok,
    }
}

async fn call_tool(
    session: &Session,
    out: &output::Output,
    target: &str,
    name: &str,
    arguments: Map<String, Value>,
) -> Exit {
    let cancel = CancellationToken::new();
    let (progress_tx, mut progress_rx) = tokio::sync::mpsc::channel(PROGRESS_BACKLOG);
    let quiet = out.format == Format::Json;
    let progress_printer = tokio::spawn(async move {
        while let Some(p) = progress_rx.recv().await {
            if !quiet {
                tell!("{}", output::progress_line(&p));
            }
        }
    });
    // Ctrl-C cancels the call (the server gets notifications/cancelled) instead of vanishing.
    let on_interrupt = cancel.clone();
    let interrupt = tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            on_interrupt.cancel();
        }
    });
    let options = CallOptions {
        progress: Some(progress_tx),
        cancel: Some(cancel),
        ..CallOptions::default()
    };
    let result = session.call_tool(name, arguments, options).await;
    interrupt.abort();
    // The call is over and its progress sender dropped: print what is still queued, then go on.
    let _ = progress_printer.await;
    let is_error = matches!(&result, Ok(r) if r.get("isError") == Some(&Value::Bool(true)));
    let findings = match &result {
        Ok(r) => audit_command::lint_result(session, target, name, r),
        Err(_) => Vec::new(),
    };
    let exit = out.tool_result(result, output::print_tool_result);
    audit_command::warn_about_result(&findings);
    if exit == Exit::Ok && is_error {
        return Exit::ToolError;
    }
    exit
}

async fn raw(cli: &Cli, session: &Session, json: &str) -> Exit {
    // What the server sends back is read from memory: keep as much as the app keeps, so that
    // a chatty server's frames do not push the answer out before it is read.
    session.traffic().keep_newest(MEMORY_BUDGET);
    let before = session.traffic().frame_count();
    let wait = Duration::from_secs_f64(cli.timeout);
    let exchange = match session.send_raw(json.as_bytes().to_vec(), wait).await {
        Ok(x) => x,
        Err(e) => {
            tell!("periscope: could not send: {e}");
            return Exit::Connect;
        }
    };
    if !exchange.sent.verdict.is_valid() {
        tell!(
            "periscope: warning: sent as typed, but it is {}",
            exchange.sent.verdict.summary()
        );
    }
    let mut replies = exchange.responses.clone();
    if replies.is_empty() && exchange.unanswered.is_empty() {
        // Nothing to wait for by id (a notification, or bytes that are not JSON-RPC): give the
        // server a moment, then show whatever it sent back, e.g. a parse error with id null.
        tokio::time::sleep(Duration::from_millis(500)).await;
        replies = session
            .traffic()
            .frames_from(before)
            .iter()
            .filter(|f| f.direction == Direction::In)
            .map(|f| {
                serde_json::from_slice(&f.bytes).unwrap_or_else(|_| Value::String(f.text_lossy()))
            })
            .collect();
    }
    for r in &replies {
        say!("{}", output::pretty(r));
    }
    if !exchange.unanswered.is_empty() {
        tell!(
            "periscope: no response to request id(s) {} within {} s",
            exchange
                .unanswered
                .iter()
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            cli.timeout
        );
        return Exit::Timeout;
    }
    if replies.iter().any(|r| r.get("error").is_some()) {
        return Exit::Protocol;
    }
    Exit::Ok
}
