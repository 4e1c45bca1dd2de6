//! The chaos suite over HTTP (docs/chaos.md): the real `periscope` CLI with `--url`,
//! `--timeout` and `--record`, against `chaos-http` (a raw-socket server that stalls, drips,
//! resets and floods) and `hostile-oauth` (a sign-in that loops or points at the cloud
//! metadata service). Each case names its expectation; every case also checks that the CLI
//! ended by itself, within its memory budget, with a whole record and every cut frame flagged.
//!
//! Beyond tests/tests/misbehaving_http.rs (HTML, a wrong content type, malformed SSE, a 20 MB
//! event, a 500, a FIN mid-stream, an endless keep-alive stream, an ignored DELETE, an expired
//! session) and oauth_security.rs (the sign-in's rules, one broken at a time).

use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use periscope_tests::chaos::{Case, FRAME_LIMIT_MIB, Run, Server, budget, deadline};
use periscope_tests::{HttpServerProcess, bin, http_get, scratch_dir};

const MIB: u64 = 1024 * 1024;
const GIB: u64 = 1024 * MIB;

fn start(args: &[&str]) -> HttpServerProcess {
    HttpServerProcess::start(Command::new(bin("chaos-http")).args(args))
}

fn case<'a>(
    name: &'a str,
    args: &'a [&'a str],
    url: &'a str,
    budget_mib: u64,
    timeout_s: u64,
) -> Case<'a> {
    Case {
        name,
        args,
        server: Server::Url(url),
        env: &[],
        budget_mib,
        deadline: deadline(timeout_s),
    }
}

/// What every case checks besides its own expectation.
fn sound(run: &Run) {
    run.ended_by_itself().within_budget();
    run.record.is_whole().cut_frames_are_flagged();
}

#[test]
fn a_server_that_never_sends_response_headers_cannot_hang_the_handshake() {
    let server = start(&["no-headers"]);
    let args = ["tools", "list", "--timeout", "5"];
    let run = case("no-headers", &args, &server.url, budget::SMALL_SESSION, 5).run();
    sound(&run);
    run.exits(&[3, 6])
        .says("could not initialize")
        .says("within 5");
    assert!(
        run.record
            .outbound()
            .any(|f| f.method.as_deref() == Some("initialize")),
        "the request that got no answer is in the record"
    );
}

#[test]
fn a_server_that_stops_answering_after_the_handshake_fails_the_call_within_the_timeout() {
    let server = start(&["no-headers-later"]);
    let args = ["tools", "list", "--timeout", "5"];
    let run = case(
        "no-headers-later",
        &args,
        &server.url,
        budget::SMALL_SESSION,
        5,
    )
    .run();
    sound(&run);
    run.exits(&[3, 6]).says("tools/list").says("within 5");
}

#[test]
fn response_headers_dripped_a_byte_at_a_time_are_cut_at_the_timeout() {
    let server = start(&["slow-headers"]);
    let args = ["tools", "list", "--timeout", "5"];
    let run = case("slow-headers", &args, &server.url, budget::SMALL_SESSION, 5).run();
    sound(&run);
    run.exits(&[3, 6]).says("tools/list").says("within 5");
}

#[test]
fn a_json_body_dripped_a_byte_at_a_time_is_cut_at_the_timeout() {
    let server = start(&["slow-json"]);
    let args = ["tools", "list", "--timeout", "5"];
    let run = case("slow-json", &args, &server.url, budget::SMALL_SESSION, 5).run();
    sound(&run);
    run.exits(&[3, 6]).says("tools/list").says("within 5");
    assert!(
        run.record
            .exchanges
            .iter()
            .any(|e| e.status == Some(200) && e.method == "POST"),
        "the exchange whose body dripped is recorded with its status"
    );
}

#[test]
fn an_sse_event_dripped_a_byte_at_a_time_is_cut_at_the_timeout() {
    let server = start(&["slow-sse"]);
    let args = ["tools", "list", "--timeout", "5"];
    let run = case("slow-sse", &args, &server.url, budget::SMALL_SESSION, 5).run();
    sound(&run);
    run.exits(&[3, 6]).says("tools/list").says("within 5");
}

#[test]
fn a_stream_reset_mid_event_is_resumed_with_last_event_id_and_the_answer_arrives_once() {
    let server = start(&["sse-reset"]);
    let args = ["tools", "list", "--timeout", "10"];
    let run = case("sse-reset", &args, &server.url, budget::SMALL_SESSION, 10).run();
    sound(&run);
    run.exits(&[0]).prints("noop()");
    let resumed = run
        .record
        .exchanges
        .iter()
        .find(|e| e.method == "GET" && e.status == Some(200))
        .expect("the resumption GET is in the record");
    let answers: Vec<_> = run
        .record
        .inbound()
        .filter(|f| f.kind == "response" && f.id == Some(serde_json::json!(2)))
        .collect();
    assert_eq!(answers.len(), 1, "one answer, from the resumed stream");
    assert_eq!(answers[0].exchange, Some(resumed.seq));
    // The half event cut by the reset is never passed off as a message.
    for f in run
        .record
        .inbound()
        .filter(|f| f.exchange != Some(resumed.seq))
    {
        assert!(
            f.kind == "response" && f.id == Some(serde_json::json!(1)) || f.kind == "not_json",
            "{f:?}"
        );
    }
}

#[test]
fn a_stream_reset_on_every_resumption_ends_in_a_clear_error_after_a_few_tries() {
    let server = start(&["sse-reset-always"]);
    let args = ["tools", "list", "--timeout", "30"];
    let run = case(
        "sse-reset-always",
        &args,
        &server.url,
        budget::SMALL_SESSION,
        30,
    )
    .run();
    sound(&run);
    run.exits(&[3, 6]).says("tools/list").says("stream");
    let resumptions = run
        .record
        .exchanges
        .iter()
        .filter(|e| e.method == "GET" && e.status == Some(200))
        .count();
    assert!((1..=10).contains(&resumptions), "{resumptions} resumptions");
}

#[test]
fn a_gigabyte_json_body_is_read_only_to_the_frame_limit_kept_in_part_and_flagged() {
    let size = GIB.to_string();
    let server = start(&["gigabyte-json", &size]);
    let args = ["tools", "list", "--timeout", "60"];
    let run = case(
        "gigabyte-json",
        &args,
        &server.url,
        budget::ONE_CUT_FRAME,
        60,
    )
    .run();
    sound(&run);
    run.exits(&[3, 4]).says("tools/list");
    let cut = run
        .record
        .inbound()
        .find(|f| f.truncated_from.is_some())
        .expect("the body is in the record, cut");
    assert!(cut.len <= FRAME_LIMIT_MIB * MIB, "kept {} bytes", cut.len);
    assert!(cut.truncated_from.unwrap() > cut.len);
}

#[test]
fn an_endless_sse_data_line_costs_bounded_memory_and_the_call_ends() {
    let server = start(&["endless-sse-line"]);
    let args = ["tools", "list", "--timeout", "5"];
    let run = case(
        "endless-sse-line",
        &args,
        &server.url,
        budget::ONE_CUT_FRAME,
        5,
    )
    .run();
    sound(&run);
    run.exits(&[3, 6]).says("tools/list");
}

#[test]
fn a_redirect_loop_is_not_followed_and_named() {
    let server = start(&["redirect-loop"]);
    let args = ["tools", "list", "--timeout", "5"];
    let run = case(
        "redirect-loop",
        &args,
        &server.url,
        budget::SMALL_SESSION,
        5,
    )
    .run();
    sound(&run);
    run.exits(&[3]).says("307");
    let hops = run
        .record
        .exchanges
        .iter()
        .filter(|e| e.status == Some(307))
        .count();
    assert_eq!(hops, 1, "one redirect seen, none followed");
}

#[test]
fn a_server_that_hangs_up_in_the_handshake_is_a_clear_connection_error() {
    let server = start(&["close-in-handshake"]);
    let args = ["tools", "list", "--timeout", "5"];
    let run = case(
        "close-in-handshake",
        &args,
        &server.url,
        budget::SMALL_SESSION,
        5,
    )
    .run();
    sound(&run);
    run.exits(&[3]).says("could not initialize");
    let exchange = run.record.exchanges.first().expect("the POST is recorded");
    assert!(
        exchange.status.is_none() && exchange.error.is_some(),
        "{exchange:?}"
    );
}

#[test]
fn a_content_length_of_a_terabyte_is_not_believed() {
    let server = start(&["length-lies"]);
    let args = ["tools", "list", "--timeout", "5"];
    let run = case("length-lies", &args, &server.url, budget::SMALL_SESSION, 5).run();
    sound(&run);
    run.exits(&[3, 4, 6]).says("tools/list");
}

#[test]
fn an_endless_response_header_is_refused_without_growing() {
    let server = start(&["endless-header"]);
    let args = ["tools", "list", "--timeout", "5"];
    let run = case(
        "endless-header",
        &args,
        &server.url,
        budget::SMALL_SESSION,
        5,
    )
    .run();
    sound(&run);
    run.exits(&[3, 6]).says("tools/list");
}

#[test]
fn a_legacy_endpoint_on_another_origin_is_refused_and_nothing_is_sent_there() {
    let dir = scratch_dir("chaos-legacy-elsewhere");
    let log = dir.join("elsewhere.log");
    let server = start(&["legacy-elsewhere", log.to_str().unwrap()]);
    let args = [
        "tools",
        "list",
        "--transport",
        "sse",
        "--header",
        "X-Api-Key: chaos-secret-key",
        "--timeout",
        "5",
    ];
    let run = case(
        "legacy-elsewhere",
        &args,
        &server.url,
        budget::SMALL_SESSION,
        5,
    )
    .run_in(&dir);
    sound(&run);
    run.exits(&[3, 6]).says("origin");
    let reached = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(reached.is_empty(), "the other origin was sent:\n{reached}");
}

/// Runs `hostile-oauth MODE` and the CLI against it, playing the browser whenever the CLI
/// prints a sign-in URL; returns the run and the fixture's request log.
fn against_hostile_oauth(name: &str, mode: &str, extra_env: &[(&str, &str)]) -> (Run, Vec<String>) {
    let dir = scratch_dir(&format!("chaos-{name}"));
    let log = dir.join("requests.log");
    let server = HttpServerProcess::start(
        Command::new(bin("hostile-oauth")).args([mode, log.to_str().unwrap()]),
    );
    let data = dir.join("data");
    let data = data.to_str().unwrap();
    let mut env = vec![
        ("XDG_DATA_HOME", data),
        ("PERISCOPE_CREDENTIALS_FILE_ONLY", "1"),
    ];
    env.extend_from_slice(extra_env);
    let args = ["ping", "--no-browser", "--timeout", "10"];
    let browsed = Arc::new(Mutex::new(0));
    let counter = browsed.clone();
    let run = Case {
        name,
        args: &args,
        server: Server::Url(&server.url),
        env: &env,
        budget_mib: budget::SMALL_SESSION,
        deadline: deadline(10),
    }
    .run_watching(&dir, move |line| {
        // The browser: follow the authorization URL, then its redirect to the CLI's listener.
        if let Some(url) = line
            .trim()
            .strip_prefix("http://")
            .filter(|_| line.contains("/authorize?"))
        {
            let (_, location, _) = http_get(&format!("http://{url}"));
            if let Some(redirect) = location {
                http_get(&redirect);
            }
            *counter.lock().unwrap() += 1;
        }
    });
    println!(
        "  {name}: the test played the browser {} time(s)",
        browsed.lock().unwrap()
    );
    let requests = std::fs::read_to_string(&log)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect();
    (run, requests)
}

#[test]
fn a_server_that_refuses_every_token_gets_three_sign_ins_then_a_clear_error() {
    let (run, requests) = against_hostile_oauth("401-loop", "always-401", &[]);
    sound(&run);
    run.exits(&[3, 4]).says("gave up after 3 sign-ins");
    let tokens = requests
        .iter()
        .filter(|l| l.starts_with("POST /token "))
        .count();
    assert_eq!(
        tokens, 3,
        "three sign-ins (a browser one, then refreshes): {requests:?}"
    );
    let posts = requests
        .iter()
        .filter(|l| l.starts_with("POST /mcp "))
        .count();
    assert!(
        posts <= 5,
        "{posts} POSTs to the MCP endpoint: {requests:?}"
    );
}

/// Where the control of the metadata-service case sends its MCP requests: the metadata
/// service's address, on a path of its own, so its lines are told from a metadata fetch.
const IMDS_CONTROL_URL: &str = "http://169.254.169.254/periscope-control/mcp";

/// Waits (at most `within`) until the tripwire's log has a line holding `needle`; returns the
/// whole log then, or says what it held at the deadline.
fn tripwire_log_with(log: &Path, needle: &str, within: Duration) -> Result<String, String> {
    let deadline = Instant::now() + within;
    loop {
        let text = std::fs::read_to_string(log);
        if let Ok(text) = &text
            && text.lines().any(|l| l.contains(needle))
        {
            return Ok(text.clone());
        }
        if Instant::now() > deadline {
            return Err(match text {
                Ok(text) => format!("the log holds only:\n{text}"),
                Err(e) => format!("no log at {}: {e}", log.display()),
            });
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_resource_metadata_url_at_the_cloud_metadata_service_is_refused_and_never_fetched() {
    // A proxy that logs what reaches it: with it as http_proxy, a request to 169.254.169.254
    // leaves a line in its log instead of vanishing into a network that has no such host.
    let dir = scratch_dir("chaos-imds-tripwire");
    let tripwire_log = dir.join("tripwire.log");
    let tripwire = start(&["tripwire", tripwire_log.to_str().unwrap()]);
    let proxy = tripwire.url.trim_end_matches("/mcp").to_string();
    let proxy_env = [
        ("http_proxy", proxy.as_str()),
        ("NO_PROXY", "127.0.0.1,localhost"),
    ];
    let (run, _) = against_hostile_oauth("imds-metadata", "imds-metadata", &proxy_env);
    sound(&run);
    run.exits(&[3, 4]).says("169.254.169.254");

    // The control: the same CLI in the same environment, told to use the metadata service's
    // address as its MCP server, does go through the tripwire, and its line is the event
    // waited for before the log is read. A tripwire that logs nothing, or a CLI that ignores
    // http_proxy (whose metadata fetch would then never show here), fails the case.
    let control_dir = dir.join("control");
    std::fs::create_dir_all(&control_dir).unwrap();
    let args = ["ping", "--timeout", "5"];
    let control = Case {
        name: "imds-control",
        args: &args,
        server: Server::Url(IMDS_CONTROL_URL),
        env: &proxy_env,
        budget_mib: budget::SMALL_SESSION,
        deadline: deadline(5),
    }
    .run_in(&control_dir);
    control.ended_by_itself();
    let reached = tripwire_log_with(
        &tripwire_log,
        "169.254.169.254/periscope-control/",
        Duration::from_secs(10),
    )
    .unwrap_or_else(|why| {
        panic!(
            "the control's request to {IMDS_CONTROL_URL} never reached the tripwire, so its \
             silence about the metadata fetch proves nothing: {why}\ncontrol stderr:\n{}",
            control.stderr
        )
    });
    let asked: Vec<&str> = reached
        .lines()
        .filter(|l| {
            l.contains("169.254.169.254") && !l.contains("169.254.169.254/periscope-control/")
        })
        .collect();
    assert!(
        asked.is_empty(),
        "the metadata service was asked:\n{}",
        asked.join("\n")
    );
}
