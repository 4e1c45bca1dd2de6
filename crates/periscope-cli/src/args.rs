//! Command-line arguments (everything before `--`).

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};
use periscope_core::config::DpopMode;
use periscope_core::host_config::{Dialect, ExportFormat};
use serde_json::{Map, Value};

#[derive(Parser, Debug)]
#[command(
    name = "periscope",
    version,
    about = "Inspect and drive an MCP server over stdio.",
    override_usage = "periscope <ACTION> [OPTIONS] -- <COMMAND> [ARGS]...\n       periscope <ACTION> [OPTIONS] --url <URL>",
    after_help = "The server command comes last, after `--`.\n\n\
Exit codes: 0 ok, 2 usage error, 3 cannot connect (spawn failed, or the server went away),\n\
4 protocol error (an error response or an answer that breaks the protocol),\n\
5 the tool returned isError, 6 timeout.\n\n\
Examples:\n  periscope tools list -- periscope-demo-server\n  \
periscope tools list --url http://127.0.0.1:8080/mcp --header-from-env X-Api-Key=MY_API_KEY\n  \
periscope tools call add -a a=2 -a b=3 -- periscope-demo-server\n  \
periscope tools call add --args-file args.json -- periscope-demo-server\n  \
periscope saved list\n  \
periscope saved run 'two plus three'\n  \
periscope import ~/.config/Claude/claude_desktop_config.json\n  \
periscope export --to vscode\n  \
periscope open-app -- periscope-demo-server\n  \
periscope open session.jsonl --print\n  \
periscope replay session.jsonl -- periscope-demo-server\n  \
periscope raw '{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"ping\"}' -- periscope-demo-server"
)]
pub struct Cli {
    #[command(subcommand)]
    pub action: Action,
    /// Output format (junit, sarif and markdown: `check` only).
    #[arg(long = "format", value_enum, default_value_t = OutputFormat::Text, global = true)]
    pub output_format: OutputFormat,
    /// `--format` for every action but `check`, which reads `output_format`.
    #[arg(skip)]
    pub format: Format,
    /// Record every frame, stderr line and flag to this file (JSON Lines; see docs/engine.md).
    #[arg(long, value_name = "FILE.jsonl", global = true)]
    pub record: Option<PathBuf>,
    /// Protocol version offered in initialize (default: the newest Periscope speaks).
    #[arg(long, value_name = "V", global = true)]
    pub protocol_version: Option<String>,
    /// Which era of MCP to speak: `auto` probes with server/discover (2026-07-28) and falls
    /// back to the initialize handshake for a legacy server; `modern` and `legacy` pin one.
    /// `check` only: `both` (auto checks both eras of a server that speaks both).
    #[arg(long, value_enum, default_value_t = EraArg::Auto, global = true)]
    pub era: EraArg,
    /// Seconds to wait for each response (progress restarts the clock).
    #[arg(long, value_name = "S", default_value_t = 60.0, global = true)]
    pub timeout: f64,
    /// Environment variable for the server (repeatable). The server inherits only PATH, HOME,
    /// USER, LOGNAME, SHELL, TERM, LANG, LC_*, TMPDIR and XDG_* from the terminal. For a
    /// secret, use --env-from-env or --env-from-file: a command line is visible to other
    /// local users.
    #[arg(long, value_name = "K=V", value_parser = key_value, global = true)]
    pub env: Vec<(String, String)>,
    /// Pass this terminal's whole environment to the server (API keys in it included).
    #[arg(long, global = true)]
    pub inherit_env: bool,
    /// A secret environment variable for the server, K, with the value of Periscope's own
    /// environment variable VAR (repeatable).
    #[arg(long, value_name = "K=VAR", value_parser = key_value, global = true)]
    pub env_from_env: Vec<(String, String)>,
    /// A secret environment variable for the server, K, with the contents of FILE (one final
    /// newline dropped; repeatable).
    #[arg(long, value_name = "K=FILE", value_parser = key_value, global = true)]
    pub env_from_file: Vec<(String, String)>,
    /// The names of `env` whose values are secret (filled from --env-from-*).
    #[arg(skip)]
    pub secret_env: Vec<String>,
    /// Working directory for the server.
    #[arg(long, value_name = "DIR", global = true)]
    pub cwd: Option<PathBuf>,
    /// Accept form elicitations with this JSON object as the content (default: decline).
    #[arg(long, value_name = "JSON", global = true)]
    pub elicit_accept: Option<String>,
    /// Decline form and URL elicitations without the hint (the default answer, made explicit).
    #[arg(long, global = true, conflicts_with = "elicit_accept")]
    pub elicit_decline: bool,
    /// Accept URL elicitations and open their URL in the system browser (http(s) only). Without
    /// it a URL is printed with its analysis, never opened.
    #[arg(long, global = true)]
    pub open_urls: bool,
    /// Answer sampling requests with this text (default: decline).
    #[arg(long, value_name = "TEXT", global = true)]
    pub sampling_reply: Option<String>,
    /// Answer sampling requests with a model at this base URL: OpenAI-compatible (Ollama
    /// http://localhost:11434/v1, LM Studio http://localhost:1234/v1, vLLM
    /// http://localhost:8000/v1, llama.cpp http://localhost:8080/v1) or, with --sampling-kind
    /// anthropic, https://api.anthropic.com. The CLI has no human in the loop: the model's answer
    /// is sent to the server as is, and printed to stderr.
    #[arg(
        long,
        value_name = "URL",
        global = true,
        conflicts_with = "sampling_reply",
        requires = "sampling_model"
    )]
    pub sampling_provider_url: Option<String>,
    /// The wire format the --sampling-provider-url speaks.
    #[arg(long, value_enum, value_name = "KIND", default_value_t = SamplingKind::Openai, global = true)]
    pub sampling_kind: SamplingKind,
    /// The model that answers sampling at --sampling-provider-url (e.g. llama3.2).
    #[arg(
        long,
        value_name = "NAME",
        global = true,
        requires = "sampling_provider_url"
    )]
    pub sampling_model: Option<String>,
    /// The environment variable holding the provider's API key (never a flag: a command line is
    /// visible to other local users). Sent only over https, or plain http to this machine.
    #[arg(
        long,
        value_name = "VAR",
        global = true,
        requires = "sampling_provider_url"
    )]
    pub sampling_key_env: Option<String>,
    /// A directory to offer as a root in roots/list (repeatable; default: none).
    #[arg(long, value_name = "PATH", global = true)]
    pub root: Vec<PathBuf>,
    /// A remote server's URL (Streamable HTTP), instead of a command after `--`. `load`
    /// takes several: the instances of one server, each logical client's requests spread
    /// across them and their answers compared.
    #[arg(long, value_name = "URL", global = true)]
    pub url: Vec<String>,
    /// An extra HTTP header for a remote server, 'Name: value' (repeatable; recorded redacted
    /// when its name says it is secret). For a secret, use --header-from-env or
    /// --header-from-file: a command line is visible to other local users.
    #[arg(long, value_name = "'K: V'", value_parser = header, global = true)]
    pub header: Vec<(String, String)>,
    /// A secret HTTP header, Name, with the value of Periscope's environment variable VAR
    /// (repeatable; always recorded redacted).
    #[arg(long, value_name = "Name=VAR", value_parser = key_value, global = true)]
    pub header_from_env: Vec<(String, String)>,
    /// A secret HTTP header, Name, with the contents of FILE (one final newline dropped;
    /// repeatable; always recorded redacted).
    #[arg(long, value_name = "Name=FILE", value_parser = key_value, global = true)]
    pub header_from_file: Vec<(String, String)>,
    /// The names of `header` whose values are secret (filled from --header-from-*).
    #[arg(skip)]
    pub secret_headers: Vec<String>,
    /// Transport for --url: `auto` tries Streamable HTTP and falls back to legacy HTTP+SSE when
    /// the first POST gets 400, 404 or 405.
    #[arg(long, value_enum, default_value_t = TransportChoice::Auto, global = true)]
    pub transport: TransportChoice,
    /// For a server that requires sign-in (OAuth): a pre-registered client ID (else the
    /// authorization server's dynamic registration is used).
    #[arg(long, value_name = "ID", global = true)]
    pub client_id: Option<String>,
    /// The pre-registered client's secret (with --client-id). Prefer
    /// --client-secret-from-env or --client-secret-from-file.
    #[arg(long, value_name = "SECRET", global = true, requires = "client_id")]
    pub client_secret: Option<String>,
    /// The pre-registered client's secret from Periscope's environment variable VAR.
    #[arg(
        long,
        value_name = "VAR",
        global = true,
        requires = "client_id",
        conflicts_with_all = ["client_secret", "client_secret_from_file"]
    )]
    pub client_secret_from_env: Option<String>,
    /// The pre-registered client's secret from the contents of FILE.
    #[arg(
        long,
        value_name = "FILE",
        global = true,
        requires = "client_id",
        conflicts_with = "client_secret"
    )]
    pub client_secret_from_file: Option<std::path::PathBuf>,
    /// A Client ID Metadata Document URL to use as client_id where the server supports it.
    #[arg(long, value_name = "URL", global = true)]
    pub client_metadata_url: Option<String>,
    /// DPoP-bound tokens (RFC 9449): `auto` when the authorization server offers them,
    /// `required` (a sign-in without them fails), or `off` (bearer tokens).
    #[arg(long, value_enum, default_value_t = DpopChoice::Auto, global = true)]
    pub dpop: DpopChoice,
    /// Workload identity (SEP-1933): sign in with the JWT in FILE, read at each sign-in, through
    /// the JWT bearer grant instead of a browser.
    #[arg(long, value_name = "FILE", global = true)]
    pub workload_token_from_file: Option<String>,
    /// Workload identity: the JWT in Periscope's environment variable VAR.
    #[arg(
        long,
        value_name = "VAR",
        global = true,
        conflicts_with = "workload_token_from_file"
    )]
    pub workload_token_from_env: Option<String>,
    /// Sign-in: print the authorization URL instead of opening the browser.
    #[arg(long, global = true)]
    pub no_browser: bool,
    /// Forget the stored sign-in for --url before connecting.
    #[arg(long, global = true)]
    pub sign_out: bool,
    /// Don't echo the server's log messages and notifications on stderr.
    #[arg(long, short, global = true)]
    pub quiet: bool,
    /// Lists: print each item whole, as a host gives it to a model: its title, every line of
    /// its description and its schemas or arguments (hidden characters marked, as always).
    #[arg(long, global = true)]
    pub full: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum EraArg {
    Auto,
    Modern,
    Legacy,
    Both,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum TransportChoice {
    Auto,
    Streamable,
    Sse,
}

/// The wire format of a sampling provider.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum SamplingKind {
    /// OpenAI chat completions (OpenAI and the local runtimes' compatible servers).
    Openai,
    /// The Anthropic Messages API.
    Anthropic,
}

/// `--dpop`: DPoP-bound tokens (RFC 9449).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DpopChoice {
    /// When the authorization server offers them.
    Auto,
    /// Always; a sign-in that gets no DPoP-bound token fails.
    Required,
    /// Never: bearer tokens.
    Off,
}

impl From<DpopChoice> for DpopMode {
    fn from(choice: DpopChoice) -> DpopMode {
        match choice {
            DpopChoice::Auto => DpopMode::Auto,
            DpopChoice::Required => DpopMode::Required,
            DpopChoice::Off => DpopMode::Off,
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Format {
    #[default]
    Text,
    Json,
}

/// What `--format` accepts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    Text,
    Json,
    /// JUnit XML (`check`, `load`, `eval run`).
    Junit,
    /// SARIF 2.1.0 (`check`).
    Sarif,
    /// Markdown (`check`).
    Markdown,
}

/// `periscope load`'s options (boxed in [`Action`]: they are many).
#[derive(clap::Args, Debug)]
pub struct LoadArgs {
    /// Call this tool.
    #[arg(long, value_name = "NAME")]
    pub tool: Option<String>,
    /// The tool's arguments as one JSON object.
    #[arg(long, value_name = "JSON", requires = "tool")]
    pub args: Option<String>,
    /// One argument of the tool, key=value (JSON if it parses, else a string).
    #[arg(short = 'a', long = "arg", value_name = "KEY=VALUE", value_parser = key_value, requires = "tool")]
    pub arg: Vec<(String, String)>,
    /// A saved call (the app's, `periscope saved list`), NAME or NAME@WEIGHT; repeat for
    /// a weighted mix.
    #[arg(long, value_name = "NAME[@WEIGHT]")]
    pub saved: Vec<String>,
    /// The saved calls' server, when names repeat across servers (its catalog id).
    #[arg(long, value_name = "ID")]
    pub server: Option<String>,
    /// Send the requests a recording's client sent (not the handshake), in turn.
    #[arg(long, value_name = "FILE.jsonl")]
    pub from_recording: Option<PathBuf>,
    /// Sessions to open (stdio: each its own server process; HTTP: its own connection).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub sessions: u32,
    /// Stdio: start the command N times as instances of one server; each session's requests
    /// are spread across them and their answers compared (several --url do the same over
    /// HTTP).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub instances: u32,
    /// Requests each session keeps in flight.
    #[arg(long, value_name = "M", default_value_t = 1)]
    pub in_flight: u32,
    /// Open loop: R requests a second across all sessions, on schedule whether or not the
    /// server keeps up (latency counted from when each was due). Without it, closed loop.
    #[arg(long, value_name = "R")]
    pub rate: Option<f64>,
    /// Requests to send.
    #[arg(long, value_name = "N")]
    pub count: Option<u64>,
    /// Seconds to send for.
    #[arg(long, value_name = "S")]
    pub duration: Option<f64>,
    /// Requests sent at most, whatever else is asked.
    #[arg(long, value_name = "N", default_value_t = periscope_core::load::plan::DEFAULT_MAX_REQUESTS)]
    pub max_requests: u64,
    /// Step up the concurrency (in flight per session) or the rate until a step crosses
    /// --break-error-rate or --break-p99: the breaking point.
    #[arg(long, value_enum, value_name = "WHAT")]
    pub ramp: Option<RampArg>,
    /// The ramp's first level (default: --in-flight, or --rate).
    #[arg(long, value_name = "X", requires = "ramp")]
    pub ramp_start: Option<f64>,
    /// What each step adds to the level (default: the first level).
    #[arg(long, value_name = "X", requires = "ramp")]
    pub ramp_step: Option<f64>,
    /// Steps at most.
    #[arg(long, value_name = "N", default_value_t = periscope_core::load::plan::DEFAULT_RAMP_STEPS, requires = "ramp")]
    pub ramp_steps: u32,
    /// Seconds each step runs.
    #[arg(long, value_name = "S", default_value_t = periscope_core::load::plan::DEFAULT_STEP_MS as f64 / 1000.0, requires = "ramp")]
    pub step_time: f64,
    /// A step breaks when more than PCT percent of its requests fail.
    #[arg(long, value_name = "PCT", default_value_t = 1.0, requires = "ramp")]
    pub break_error_rate: f64,
    /// A step breaks when its p99 passes MS milliseconds.
    #[arg(long, value_name = "MS", requires = "ramp")]
    pub break_p99: Option<f64>,
    /// Send without asking first (scripts, CI).
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Fail (exit 1) when the p99 latency passes MS milliseconds (fractions allowed).
    #[arg(long, value_name = "MS")]
    pub max_p99: Option<f64>,
    /// Fail when more than PCT percent of requests fail.
    #[arg(long, value_name = "PCT")]
    pub max_error_rate: Option<f64>,
    /// Fail when fewer than N requests a second complete.
    #[arg(long, value_name = "N")]
    pub min_throughput: Option<f64>,
    /// Compare with a saved run (--save, or --format json's output) and fail when a request
    /// regressed by more than --regression-threshold.
    #[arg(long, value_name = "FILE.json")]
    pub baseline: Option<PathBuf>,
    /// How much worse (percent) counts as a regression against --baseline.
    #[arg(long, value_name = "PCT", default_value_t = periscope_core::load::gates::DEFAULT_REGRESSION_PCT)]
    pub regression_threshold: f64,
    /// Write the workload as a locustfile to standard output instead of running it (needs
    /// --url): Locust's master and workers then run it distributed (see docs/load.md).
    #[arg(long, value_enum, value_name = "TOOL")]
    pub export: Option<ExportArg>,
    /// Save the run's report to FILE (JSON), e.g. as a later run's --baseline.
    #[arg(long, value_name = "FILE.json")]
    pub save: Option<PathBuf>,
}

/// `load --export`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExportArg {
    /// A locustfile (Python) for Locust.
    Locust,
}

/// `load --ramp`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum RampArg {
    /// Requests in flight per session (closed loop).
    Concurrency,
    /// Requests a second (open loop).
    Rate,
}

/// `diff --fail-on`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum DiffFailOn {
    /// Any difference.
    Any,
    /// Only a difference that breaks a client of the first surface.
    Breaking,
}

/// `check --fail-on`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum FailOnArg {
    /// Exit 1 when a rule failed.
    Error,
    /// Exit 1 when a rule failed or warned.
    Warning,
}

/// `periscope audit --fail-on`: the lowest severity that fails.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum AuditFailOn {
    /// Exit 1 on any finding, information included.
    Info,
    /// Exit 1 on a warning or an error.
    Warning,
    /// Exit 1 on an error.
    Error,
}

#[derive(Subcommand, Debug)]
pub enum Action {
    /// List or call tools.
    #[command(subcommand)]
    Tools(ToolsAction),
    /// List, list templates of, or read resources.
    #[command(subcommand)]
    Resources(ResourcesAction),
    /// List or get prompts.
    #[command(subcommand)]
    Prompts(PromptsAction),
    /// The skills the server publishes (the skills extension, SEP-2640), each file verified
    /// against its skill's manifest (exit 4 on a digest, size or frontmatter mismatch).
    #[command(subcommand)]
    Skills(SkillsAction),
    /// What the server says about itself: era, protocol version, identity, capabilities.
    Info,
    /// Ping the server (legacy era only: 2026-07-28 removed ping).
    Ping,
    /// Print the server's notifications as they arrive, until Ctrl-C or --for: a 2026-07-28
    /// listen stream (`subscriptions/listen`) with the kinds asked for (none: all three list
    /// changes); a legacy server sends list changes unasked, and --resource subscribes.
    Listen {
        /// Tools list changes.
        #[arg(long)]
        tools: bool,
        /// Prompts list changes.
        #[arg(long)]
        prompts: bool,
        /// Resources list changes.
        #[arg(long)]
        resources: bool,
        /// Updates of this resource (repeatable).
        #[arg(long = "resource", value_name = "URI")]
        resource: Vec<String>,
        /// Stop after this many seconds.
        #[arg(long = "for", value_name = "SECONDS")]
        duration: Option<f64>,
    },
    /// The calls saved in the desktop app's Saved tab (saved.json in its data folder).
    #[command(subcommand)]
    Saved(SavedAction),
    /// Preview the servers in another MCP host's config (Claude Desktop, Claude Code, Cursor,
    /// Windsurf, Cline, VS Code, Zed, a registry server.json) or in a pasted command line:
    /// commands, URLs, env and header names (values masked), which values would go to the
    /// secret store, and what is refused and why. Nothing is written: import in the app.
    Import {
        /// The config file, or `-` for standard input (pasted JSON or a command line).
        #[arg(required_unless_present = "detect")]
        file: Option<PathBuf>,
        /// The file's dialect (default: detected from its shape and name): claude-desktop,
        /// claude-code, cursor, windsurf, cline, vscode, zed, registry, command-line.
        #[arg(long, value_name = "DIALECT", value_parser = dialect)]
        from: Option<Dialect>,
        /// List the usual config files of installed hosts that exist here, instead.
        #[arg(long, conflicts_with_all = ["file", "from"])]
        detect: bool,
    },
    /// Open the server in the desktop app (periscope-app, beside this program or on PATH) as a
    /// temporary entry, connected; a running app gets it instead of a second one starting.
    OpenApp,
    /// Write the desktop app's servers (all, or those named by id or name) in another host's
    /// dialect, secret values as placeholders (`<secret: NAME>`, `${input:…}` for VS Code).
    Export {
        /// claude-desktop, claude-code, cursor, windsurf, cline, vscode, zed, command-line, or
        /// claude-mcp-add / code-add-mcp for one `claude mcp add` / `code --add-mcp` line each.
        #[arg(long, value_name = "FORMAT", value_parser = export_format)]
        to: ExportFormat,
        /// Servers by id or name (default: all).
        servers: Vec<String>,
    },
    /// Compare what a server showed of itself (identity, tools, resources, templates, prompts)
    /// in two record files, or at the first and last listing of one. Exit 0 when the same, 1
    /// when they differ (with --fail-on breaking: only when a change breaks a client). No server.
    Diff {
        /// A record file (written with --record).
        first: PathBuf,
        /// Another record file (default: FIRST's first listing against its last).
        second: Option<PathBuf>,
        /// What makes the exit code 1: `any` difference, or only a `breaking` one (a tool,
        /// resource, template or prompt removed, a new required argument, a narrowed type, a
        /// removed enum value; additions break nothing).
        #[arg(long, value_enum, default_value_t = DiffFailOn::Any)]
        fail_on: DiffFailOn,
    },
    /// Open a record file (written with --record or the app's Save session…) in the desktop
    /// app, read-only; with --print, print its summary (target, era, counts, the server's
    /// surface) and its frames here instead. No server.
    Open {
        /// The record file.
        file: PathBuf,
        /// Print the recording in the terminal instead of opening the app.
        #[arg(long)]
        print: bool,
    },
    /// Send a record file's client requests and notifications again, in order, to a live
    /// server (`-- <command>` or --url), and compare each response with the recorded one. The
    /// handshake is not replayed (the live session makes its own), nor are answers to the
    /// server's requests. Exit 0 when every response is the same, 1 when one differs or does
    /// not come, 2 when the file cannot be read.
    Replay {
        /// The record file.
        file: PathBuf,
        /// A JSON Pointer into each response whose value is not compared (a timestamp):
        /// `/result/at`, `*` for any member or index (repeatable).
        #[arg(long, value_name = "POINTER")]
        ignore: Vec<String>,
    },
    /// Export a record file (written with --record) for other tools: `har` (the HTTP
    /// exchanges as HAR 1.2, for browsers' developer tools), `jsonl` (one message a line, for
    /// jq), `markdown` (chosen frames, for a bug report). No server.
    #[command(subcommand)]
    Recording(RecordingAction),
    /// Check the server: ask what it must answer right (lifecycle, JSON-RPC, lists, tools,
    /// resources, prompts, utilities, stdio), in each era it speaks, and give each rule a
    /// verdict (pass, fail, warning, skipped and why) with the frames that show it and a fix.
    /// Only tools marked read-only are called, unless --call or --call-all. Exit 0 when nothing
    /// at or above --fail-on failed, 1 when something did, 3 when the server cannot be
    /// reached. See docs/check.md.
    Check {
        /// The lowest verdict that fails the check (exit 1).
        #[arg(long, value_enum, default_value_t = FailOnArg::Error)]
        fail_on: FailOnArg,
        /// Only these rules or areas (comma-separated or repeated): `jsonrpc.unknown-method`,
        /// `tools`…
        #[arg(long, value_name = "RULE|AREA", value_delimiter = ',')]
        only: Vec<String>,
        /// Not these rules or areas.
        #[arg(long, value_name = "RULE|AREA", value_delimiter = ',')]
        skip: Vec<String>,
        /// Also call this tool (not marked read-only) with arguments made from its schema
        /// (repeatable).
        #[arg(long = "call", value_name = "TOOL")]
        call: Vec<String>,
        /// Call every tool.
        #[arg(long, conflicts_with = "no_calls")]
        call_all: bool,
        /// Call no tool, not even the read-only ones.
        #[arg(long)]
        no_calls: bool,
        /// The file SARIF results point at (the server's entry point in your repository).
        #[arg(long, value_name = "PATH")]
        sarif_location: Option<String>,
        /// Print the rules (id, area, weight, title) and exit; no server.
        #[arg(long)]
        list_rules: bool,
    },
    /// Audit what a model receives from the server, offline: every tool, prompt and resource
    /// text and the server's instructions, linted for hidden characters, names that mix
    /// scripts or imitate others, text aimed at the model (`<IMPORTANT>`, "ignore previous
    /// instructions", "do not tell the user"), pointers to secrets, addresses to send data
    /// to, unexplained side-channel parameters and free-form inputs. Calls nothing. Exit 0
    /// when no finding is at or above --fail-on, 1 when one is, 3 when the server cannot be
    /// reached. Formats: text, json, sarif. See docs/audit.md.
    Audit {
        /// The lowest severity that fails the audit (exit 1).
        #[arg(long, value_enum, default_value_t = AuditFailOn::Error)]
        fail_on: AuditFailOn,
        /// The file SARIF results point at (the server's entry point in your repository).
        #[arg(long, value_name = "PATH")]
        sarif_location: Option<String>,
        /// Print the rules (id, severity, title) and exit; no server.
        #[arg(long)]
        list_rules: bool,
        /// Write each tool's fingerprint (name, title, description, schemas, annotations) to
        /// FILE, to compare later runs with --against.
        #[arg(long, value_name = "FILE")]
        pin: Option<PathBuf>,
        /// Compare the tools with the fingerprints in FILE (written by --pin): print what was
        /// added, removed or changed, and exit 1 on any difference (a "rug pull" in CI).
        #[arg(long, value_name = "FILE")]
        against: Option<PathBuf>,
        /// Print what each major host (the Anthropic, OpenAI and Gemini APIs, OpenAI's strict
        /// mode, Claude Code, VS Code, Cursor) does with each tool: accepts, changes, rejects,
        /// and why, with each rule's source.
        #[arg(long)]
        hosts: bool,
        /// Print the tokens each tool's definition and the instructions cost, dearest first
        /// (OpenAI's o200k_base and cl100k_base; an estimate for Anthropic's models).
        #[arg(long)]
        tokens: bool,
        /// Warn when the tools and instructions cost more than N tokens (o200k).
        #[arg(long, value_name = "N", default_value_t = periscope_core::audit::tokens::DEFAULT_BUDGET)]
        token_budget: u32,
    },
    /// Drive a workload against the server and measure it: one tool call (--tool), saved
    /// calls mixed by weight (--saved), or a recording's requests (--from-recording); through
    /// --sessions sessions (stdio: a server process each) with --in-flight requests each,
    /// closed-loop or at a fixed --rate; for a --count or a --duration, or --ramp up until
    /// the server breaks. Shows what will be sent and asks before sending (--yes skips it).
    /// Exit 0 when every gate passed, 1 when one failed, 3 when the server cannot be reached.
    /// Formats: text, json, junit. See docs/load.md.
    Load(Box<LoadArgs>),
    /// Evals: does a model use the server's tools right? `init` prints a starter suite for
    /// the server; `run` asks models each case of a suite (--repeat times each) and grades
    /// their tool calls and answers; `compare` sets two saved runs side by side. Exit 0 when
    /// every gate passed, 1 when one failed, 2 for a suite that does not read, 3 when the
    /// server cannot be reached. Formats: text, json, junit. See docs/evals.md.
    #[command(subcommand)]
    Eval(EvalAction),
    /// Act as the client of the official MCP conformance suite: connect to URL and do what the
    /// scenario in MCP_CONFORMANCE_SCENARIO asks (used as `conformance client --command`).
    ConformanceClient {
        /// The scenario's server URL (the suite passes it last).
        url: String,
    },
    /// Send JSON exactly as typed (even if it is not valid JSON-RPC) and show the reply.
    Raw {
        /// The bytes to send, as one line.
        json: String,
    },
}

#[derive(Subcommand, Debug)]
pub enum EvalAction {
    /// Print a starter suite for the server: one case per tool a model may see, its prompt
    /// from the description and its arguments from the input schema, to edit.
    Init,
    /// Run a suite against the server: every case × model × variant, --repeat times, graded.
    Run(Box<EvalRunArgs>),
    /// Compare two saved runs (--save, or --format json's output) case by case: fixed,
    /// broken, unchanged, with the change in pass rate. Exit 1 when a case broke. No server.
    Compare {
        /// The earlier run.
        before: PathBuf,
        /// The later run.
        after: PathBuf,
    },
}

/// `periscope eval run`'s options.
#[derive(clap::Args, Debug)]
pub struct EvalRunArgs {
    /// The suite (YAML or JSON; docs/evals.md).
    pub suite: PathBuf,
    /// A model to ask (repeatable): a provider of the desktop app's Models settings by name
    /// or id, or with --model-url the model's name at that URL (e.g. llama3.2).
    #[arg(long = "model", value_name = "NAME", required = true)]
    pub models: Vec<String>,
    /// The models' base URL: OpenAI-compatible (Ollama http://localhost:11434/v1) or, with
    /// --model-api anthropic, https://api.anthropic.com. Without it, --model names settings.
    #[arg(long, value_name = "URL")]
    pub model_url: Option<String>,
    /// The wire format --model-url speaks.
    #[arg(long, value_enum, value_name = "API", default_value_t = SamplingKind::Openai)]
    pub model_api: SamplingKind,
    /// The environment variable holding --model-url's API key (never a flag).
    #[arg(long, value_name = "VAR", requires = "model_url")]
    pub model_key_env: Option<String>,
    /// The advisory judge for cases with a rubric, named like --model.
    #[arg(long, value_name = "NAME")]
    pub judge: Option<String>,
    /// Repetitions of each case for each model (default: the suite's, else 3).
    #[arg(long, value_name = "K")]
    pub repeat: Option<u32>,
    /// Repetitions under way at once.
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub concurrency: usize,
    /// Also try this variant of the suite (its wording of the tools), compared with the
    /// server's own (repeatable).
    #[arg(long = "variant", value_name = "NAME")]
    pub variants: Vec<String>,
    /// Only this case (repeatable).
    #[arg(long = "case", value_name = "ID")]
    pub cases: Vec<String>,
    /// Run the tools marked read-only when the model calls them. Other calls are refused
    /// (the model is told the user rejected them) unless named with --approve.
    #[arg(long)]
    pub auto_approve_read_only: bool,
    /// Run this tool when the model calls it, destructive or not: your yes (repeatable).
    #[arg(long = "approve", value_name = "TOOL")]
    pub approve: Vec<String>,
    /// Seconds one repetition may take (its model rounds and tool calls).
    #[arg(long, value_name = "S", default_value_t = 300.0)]
    pub case_timeout: f64,
    /// Tokens (in and out) the run may spend; no repetition starts once reached.
    #[arg(long, value_name = "N")]
    pub max_run_tokens: Option<u64>,
    /// Seconds the run may take; repetitions under way then stop.
    #[arg(long, value_name = "S")]
    pub max_run_seconds: Option<f64>,
    /// Fail (exit 1) when a case passes less than PCT percent of its repetitions (for any
    /// model or variant).
    #[arg(long, value_name = "PCT")]
    pub min_pass_rate: Option<f64>,
    /// Compare with a saved run and fail when a case's pass rate falls more than --margin
    /// points below it.
    #[arg(long, value_name = "FILE.json")]
    pub baseline: Option<PathBuf>,
    /// How many points a case's pass rate may fall below --baseline.
    #[arg(long, value_name = "POINTS", default_value_t = periscope_core::evals::compare::DEFAULT_MARGIN_PCT)]
    pub margin: f64,
    /// Fail when a case's p95 latency passes MS milliseconds.
    #[arg(long, value_name = "MS")]
    pub max_p95_latency: Option<f64>,
    /// Save the run's report to FILE (JSON), e.g. as a later run's --baseline.
    #[arg(long, value_name = "FILE.json")]
    pub save: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
pub enum RecordingAction {
    /// The HTTP exchanges as HAR 1.2 (empty for a stdio session).
    Har {
        file: PathBuf,
        /// Write here instead of standard output.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// The frames as JSON Lines: seq, time, direction, and the message (or its text when it is
    /// not JSON), flags.
    Jsonl {
        file: PathBuf,
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Frames (and stderr lines) as Markdown for a bug report.
    Markdown {
        file: PathBuf,
        /// Which, by number: "3,7-9" (default: all).
        #[arg(long, value_name = "LIST")]
        frames: Option<String>,
        /// The report's title (default: the file's name).
        #[arg(long)]
        title: Option<String>,
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
}

#[derive(Subcommand, Debug)]
pub enum ToolsAction {
    /// List every tool (all pages).
    List,
    /// Call a tool.
    Call {
        name: String,
        /// All arguments as one JSON object.
        #[arg(long)]
        args: Option<String>,
        /// All arguments as one JSON object, from a file (`-`: standard input).
        #[arg(long, value_name = "FILE.json", conflicts_with = "args")]
        args_file: Option<PathBuf>,
        /// One argument, key=value; the value is read as JSON if it parses, else as a string.
        #[arg(short = 'a', long = "arg", value_name = "KEY=VALUE", value_parser = key_value)]
        arg: Vec<(String, String)>,
        /// Run it as a task: poll it, print each status change on stderr; Ctrl-C cancels it.
        #[arg(long)]
        task: bool,
    },
}

#[derive(Subcommand, Debug)]
pub enum SavedAction {
    /// List the saved calls (no server needed).
    List {
        /// Only this server's (its id in the app's catalog).
        #[arg(long, value_name = "ID")]
        server: Option<String>,
    },
    /// Run a saved call by name. Without --url or `-- COMMAND`, against the server it was saved
    /// for, as the app's catalog describes it.
    Run {
        name: String,
        /// The server the call was saved for (needed when two servers have a call of that name).
        #[arg(long, value_name = "ID")]
        server: Option<String>,
    },
}

#[derive(Subcommand, Debug)]
pub enum ResourcesAction {
    /// List every resource (all pages).
    List,
    /// List resource templates.
    Templates,
    /// Read one resource.
    Read { uri: String },
}

#[derive(Subcommand, Debug)]
pub enum SkillsAction {
    /// List every skill (all pages): name, description, files, and what is wrong with an
    /// entry. Reads only the listing: no skill file is fetched.
    List,
    /// One skill's entry: its files with their digests and sizes, and its frontmatter. NAME is
    /// a listed skill's name or the URI of a SKILL.md (listed or not).
    Get { name: String },
    /// Read one file of a skill, verified against the skill's manifest; a SKILL.md is loaded
    /// (its frontmatter compared with the entry's too). Exit 4, nothing printed of it, when it
    /// does not match.
    Read { uri: String },
}

#[derive(Subcommand, Debug)]
pub enum PromptsAction {
    /// List every prompt (all pages).
    List,
    /// Get a prompt, with string arguments.
    Get {
        name: String,
        #[arg(short = 'a', long = "arg", value_name = "KEY=VALUE", value_parser = key_value)]
        arg: Vec<(String, String)>,
    },
}

fn dialect(s: &str) -> Result<Dialect, String> {
    Dialect::from_id(s).ok_or_else(|| {
        let ids: Vec<&str> = Dialect::ALL.iter().map(|d| d.id()).collect();
        format!("unknown dialect {s:?}; one of: {}", ids.join(", "))
    })
}

fn export_format(s: &str) -> Result<ExportFormat, String> {
    ExportFormat::from_id(s)
        .ok_or_else(|| format!("unknown format {s:?}; one of: {}", ExportFormat::IDS))
}

fn header(s: &str) -> Result<(String, String), String> {
    match s.split_once(':') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.trim().to_string())),
        _ => Err(format!("expected 'Name: value', got {s:?}")),
    }
}

fn key_value(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((k, v)) if !k.is_empty() => Ok((k.to_string(), v.to_string())),
        _ => Err(format!("expected KEY=VALUE, got {s:?}")),
    }
}

/// Builds a tool's arguments from `--args` and `-a` (which win on the same key).
pub fn tool_arguments(
    json: Option<&str>,
    pairs: &[(String, String)],
) -> Result<Map<String, Value>, String> {
    let mut map = match json {
        None => Map::new(),
        Some(text) => match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(map)) => map,
            Ok(other) => return Err(format!("--args must be a JSON object, got {other}")),
            Err(e) => return Err(format!("--args is not valid JSON: {e}")),
        },
    };
    for (k, v) in pairs {
        let value = serde_json::from_str(v).unwrap_or_else(|_| Value::String(v.clone()));
        map.insert(k.clone(), value);
    }
    Ok(map)
}

/// Reads `--format` and `--era` against the action: junit, sarif and markdown, and era
/// `both`, are `check`'s alone.
pub fn settle_format(cli: &mut Cli) -> Result<(), String> {
    let checking = matches!(cli.action, Action::Check { .. });
    let auditing = matches!(cli.action, Action::Audit { .. });
    let loading = matches!(cli.action, Action::Load(_))
        || matches!(cli.action, Action::Eval(EvalAction::Run(_)));
    cli.format = match cli.output_format {
        OutputFormat::Text => Format::Text,
        OutputFormat::Json => Format::Json,
        OutputFormat::Junit | OutputFormat::Sarif | OutputFormat::Markdown if checking => {
            Format::Text
        }
        OutputFormat::Sarif if auditing => Format::Text,
        OutputFormat::Junit if loading => Format::Text,
        other => {
            return Err(format!(
                "--format {} is for `periscope check` (and sarif for `periscope audit`, junit for `periscope load` and `periscope eval run`) only; use text or json",
                other
                    .to_possible_value()
                    .map(|v| v.get_name().to_string())
                    .unwrap_or_default()
            ));
        }
    };
    if cli.era == EraArg::Both && !checking {
        return Err("--era both is for `periscope check` only".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_values_are_json_when_they_parse_and_strings_otherwise() {
        let pairs = vec![
            ("n".to_string(), "5".to_string()),
            ("s".to_string(), "hello".to_string()),
            ("o".to_string(), "{\"x\":true}".to_string()),
        ];
        let map = tool_arguments(Some(r#"{"n": 1, "keep": "me"}"#), &pairs).unwrap();
        assert_eq!(
            Value::Object(map),
            serde_json::json!({"n": 5, "keep": "me", "s": "hello", "o": {"x": true}})
        );
        assert!(tool_arguments(Some("[1]"), &[]).is_err());
    }
}
