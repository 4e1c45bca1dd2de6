//! The `periscope` CLI against `@modelcontextprotocol/server-everything` in its Streamable HTTP
//! and legacy SSE modes: calls work, progress streams over SSE, the legacy transport is detected,
//! and the record holds every HTTP exchange.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use periscope_tests::{periscope_at, scratch_dir, server_everything, stdout_of_success};
use serde_json::Value;

struct Everything {
    child: Child,
    url: String,
}

impl Drop for Everything {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_everything() -> Everything {
    start_everything_in("streamableHttp", "/mcp")
}

fn start_everything_in(mode: &str, path: &str) -> Everything {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut child = Command::new(server_everything())
        .arg(mode)
        .env("PORT", port.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("server-everything starts");
    // It says "listening on port N" when it is ready.
    let out = BufReader::new(child.stdout.take().unwrap());
    let err = BufReader::new(child.stderr.take().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    for lines in [
        Box::new(out.lines()) as Box<dyn Iterator<Item = std::io::Result<String>> + Send>,
        Box::new(err.lines()),
    ] {
        let tx = tx.clone();
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                if line.contains("listening on port") || line.contains("running on port") {
                    let _ = tx.send(());
                }
            }
        });
    }
    rx.recv_timeout(std::time::Duration::from_secs(30))
        .expect("server-everything listens within 30 s");
    Everything {
        child,
        url: format!("http://127.0.0.1:{port}{path}"),
    }
}

#[test]
fn tools_resources_and_prompts_work_over_streamable_http() {
    let server = start_everything();
    assert!(
        stdout_of_success(&periscope_at(&server.url, &["tools", "list"])).contains("echo(message)")
    );
    assert_eq!(
        stdout_of_success(&periscope_at(
            &server.url,
            &["tools", "call", "echo", "-a", "message=over http"]
        ))
        .trim(),
        "Echo: over http"
    );
    let resources: Value = serde_json::from_str(&stdout_of_success(&periscope_at(
        &server.url,
        &["resources", "list", "--format", "json"],
    )))
    .unwrap();
    let uri = resources[0]["uri"].as_str().unwrap().to_string();
    assert!(
        !stdout_of_success(&periscope_at(&server.url, &["resources", "read", &uri])).is_empty()
    );
    assert!(
        stdout_of_success(&periscope_at(
            &server.url,
            &["prompts", "get", "args-prompt", "-a", "city=Porto"]
        ))
        .contains("Porto")
    );
}

#[test]
fn progress_streams_over_sse_before_the_result() {
    let server = start_everything();
    let out = periscope_at(
        &server.url,
        &[
            "tools",
            "call",
            "trigger-long-running-operation",
            "-a",
            "duration=1",
            "-a",
            "steps=3",
        ],
    );
    assert!(stdout_of_success(&out).contains("Long running operation completed"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("[progress 1/3]"), "{err}");
    assert!(err.contains("[progress 3/3]"), "{err}");
}

#[test]
fn the_record_holds_each_http_exchange_with_session_and_version_headers_and_a_final_delete() {
    let server = start_everything();
    let dir = scratch_dir("http-record");
    let record = dir.join("http.jsonl");
    stdout_of_success(&periscope_at(
        &server.url,
        &[
            "ping",
            // The legacy era's session: its id, the negotiated version header, the DELETE.
            "--era",
            "legacy",
            "--record",
            record.to_str().unwrap(),
            "--header",
            "Authorization: Bearer not-for-the-record",
        ],
    ));
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(
        !text.contains("not-for-the-record"),
        "a secret header reached the record"
    );
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let http: Vec<&Value> = lines.iter().filter(|l| l["type"] == "http").collect();
    let methods: Vec<&str> = http.iter().map(|h| h["method"].as_str().unwrap()).collect();
    // Periscope's own messages are exactly these three, one POST each; the server may also
    // ask something on the GET stream (e.g. roots/list after `initialized`, when that stream
    // opens in time), and each answer is one more POST.
    let sent: Vec<Value> = lines
        .iter()
        .filter(|l| l["type"] == "frame" && l["direction"] == "out")
        .map(|l| serde_json::from_str(l["bytes"]["text"].as_str().unwrap()).unwrap())
        .collect();
    let asked: Vec<&str> = sent.iter().filter_map(|m| m["method"].as_str()).collect();
    assert_eq!(asked, ["initialize", "notifications/initialized", "ping"]);
    let answers = sent.iter().filter(|m| m.get("method").is_none()).count();
    assert_eq!(
        methods.iter().filter(|m| **m == "POST").count(),
        3 + answers,
        "{methods:?}"
    );
    assert_eq!(methods.last(), Some(&"DELETE"), "{methods:?}");
    let header = |h: &Value, name: &str| {
        h["request_headers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p[0] == name)
            .map(|p| p[1].as_str().unwrap().to_string())
    };
    let first_post = http[0];
    assert_eq!(
        header(first_post, "authorization").as_deref(),
        Some("[redacted]")
    );
    assert_eq!(header(first_post, "mcp-session-id"), None);
    let session = first_post["response_headers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p[0] == "mcp-session-id")
        .map(|p| p[1].clone())
        .expect("the server gave a session id");
    let ping_post = http
        .iter()
        .filter(|h| h["method"] == "POST")
        .nth(2)
        .unwrap();
    assert_eq!(
        header(ping_post, "mcp-session-id").map(Value::from),
        Some(session)
    );
    assert_eq!(
        header(ping_post, "mcp-protocol-version").as_deref(),
        Some("2025-11-25")
    );
    // Each frame that came back names the exchange that carried it.
    let inbound: Vec<&Value> = lines
        .iter()
        .filter(|l| l["type"] == "frame" && l["direction"] == "in")
        .collect();
    assert!(!inbound.is_empty());
    for frame in inbound {
        let ex = frame["exchange"]
            .as_u64()
            .expect("an inbound frame names its exchange");
        assert!(http.iter().any(|h| h["seq"] == ex));
    }
}

#[test]
fn an_unreachable_url_exits_3_and_says_why() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let out = periscope_at(&format!("http://127.0.0.1:{port}/mcp"), &["tools", "list"]);
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("POST http://127.0.0.1:"), "{err}");
    assert!(err.to_lowercase().contains("connect"), "{err}");
}

#[test]
fn a_legacy_sse_server_is_detected_and_spoken_to() {
    let server = start_everything_in("sse", "/sse");
    let dir = scratch_dir("legacy-record");
    let record = dir.join("legacy.jsonl");
    let out = periscope_at(
        &server.url,
        &[
            "tools",
            "call",
            "echo",
            "-a",
            "message=old school",
            "--record",
            record.to_str().unwrap(),
        ],
    );
    assert_eq!(stdout_of_success(&out).trim(), "Echo: old school");
    let lines: Vec<Value> = std::fs::read_to_string(&record)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let http: Vec<(String, String, u64)> = lines
        .iter()
        .filter(|l| l["type"] == "http")
        .map(|h| {
            (
                h["method"].as_str().unwrap().to_string(),
                h["url"].as_str().unwrap().to_string(),
                h["status"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    // The server/discover probe is refused without a modern error (so: legacy), then the
    // Streamable HTTP initialize is refused too, the stream is opened, and the same initialize
    // frame goes to the endpoint the stream named.
    assert_eq!((http[0].0.as_str(), http[0].2), ("POST", 404), "{http:?}");
    assert_eq!((http[1].0.as_str(), http[1].2), ("POST", 404), "{http:?}");
    assert_eq!((http[2].0.as_str(), http[2].2), ("GET", 200), "{http:?}");
    assert!(http[3].1.contains("/message?sessionId="), "{http:?}");
    assert_eq!(http[3].2, 202);

    let forced = periscope_at(&server.url, &["tools", "list", "--transport", "sse"]);
    assert!(stdout_of_success(&forced).contains("echo(message)"));

    let wrong = periscope_at(&server.url, &["tools", "list", "--transport", "streamable"]);
    assert_eq!(wrong.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("HTTP 404"));
}
