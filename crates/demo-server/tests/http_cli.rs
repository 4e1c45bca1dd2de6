//! The `--http` command line: the URL lines on stdout and stderr, and a clean
//! exit on SIGTERM; with `--oauth`, `/mcp` refuses unauthenticated requests.

#![cfg(unix)]

use std::{
    io::{BufRead, BufReader, Read, Write},
    net::TcpStream,
    process::{Child, Command, Stdio},
    sync::mpsc,
    thread,
    time::{Duration, Instant},
};

const TIMEOUT: Duration = Duration::from_secs(10);

/// Starts the server with `args`; returns it with the URL it printed on
/// stdout and the `listening on` line it printed on stderr.
fn start(args: &[&str]) -> (Child, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_periscope-demo-server"))
        .args(args)
        .env("RUST_LOG", "info")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (lines, received) = mpsc::channel();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let stderr = BufReader::new(child.stderr.take().unwrap());
    let to_stdout = lines.clone();
    thread::spawn(move || {
        for line in stdout.lines().map_while(Result::ok) {
            let _ = to_stdout.send((true, line));
        }
    });
    thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            let _ = lines.send((false, line));
        }
    });
    let (mut url, mut listening) = (None, None);
    while url.is_none() || listening.is_none() {
        let (is_stdout, line) = received
            .recv_timeout(TIMEOUT)
            .expect("the server printed no URL");
        if is_stdout {
            assert!(url.is_none(), "more than one stdout line: {line}");
            url = Some(line);
        } else if line.starts_with("listening on ") {
            listening = Some(line);
        }
    }
    (child, url.unwrap(), listening.unwrap())
}

fn sigterm_and_wait(mut child: Child) {
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let deadline = Instant::now() + TIMEOUT;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "exit status {status}");
            return;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the server did not exit on SIGTERM");
        }
        thread::sleep(Duration::from_millis(20));
    }
}

/// `GET path` over a raw socket; returns the status line.
fn get_status_line(url: &str, path: &str) -> String {
    let authority = url
        .strip_prefix("http://")
        .and_then(|rest| rest.split('/').next())
        .unwrap();
    let mut stream = TcpStream::connect(authority).unwrap();
    stream.set_read_timeout(Some(TIMEOUT)).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {authority}\r\nAccept: text/event-stream\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut reader = BufReader::new(stream);
    let mut status = String::new();
    reader.read_line(&mut status).unwrap();
    status.trim_end().to_string()
}

/// `POST path` with a JSON-RPC body and no credentials over a raw socket;
/// returns the status line and the `WWW-Authenticate` header value.
fn post_without_token(url: &str, path: &str) -> (String, Option<String>) {
    let authority = url
        .strip_prefix("http://")
        .and_then(|rest| rest.split('/').next())
        .unwrap();
    let mut stream = TcpStream::connect(authority).unwrap();
    stream.set_read_timeout(Some(TIMEOUT)).unwrap();
    let body = r#"{"jsonrpc":"2.0","id":0,"method":"ping"}"#;
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut reader = BufReader::new(stream);
    let mut status = String::new();
    reader.read_line(&mut status).unwrap();
    let mut challenge = None;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("www-authenticate")
        {
            challenge = Some(value.trim().to_string());
        }
    }
    (status.trim_end().to_string(), challenge)
}

#[test]
fn streamable_http_prints_its_url_and_exits_0_on_sigterm() {
    let (child, url, listening) = start(&["--http", "127.0.0.1:0"]);
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    assert!(url.ends_with("/mcp"), "{url}");
    assert!(!url.ends_with(":0/mcp"), "{url}");
    assert_eq!(listening, format!("listening on {url}"));
    // No session id: the transport answers 400, so /mcp is being served.
    assert_eq!(get_status_line(&url, "/mcp"), "HTTP/1.1 400 Bad Request");
    sigterm_and_wait(child);
}

#[test]
fn legacy_sse_prints_its_url_and_exits_0_on_sigterm_with_a_stream_open() {
    let (child, url, listening) = start(&["--http", "127.0.0.1:0", "--sse"]);
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    assert!(url.ends_with("/sse"), "{url}");
    assert_eq!(listening, format!("listening on {url}"));
    // Keep a session's stream open across the signal.
    let authority = url.trim_start_matches("http://").trim_end_matches("/sse");
    let mut stream = TcpStream::connect(authority).unwrap();
    stream.set_read_timeout(Some(TIMEOUT)).unwrap();
    write!(
        stream,
        "GET /sse HTTP/1.1\r\nHost: {authority}\r\nAccept: text/event-stream\r\n\r\n"
    )
    .unwrap();
    let mut seen = String::new();
    let mut buffer = [0; 1024];
    while !seen.contains("event: endpoint") {
        let read = stream.read(&mut buffer).unwrap();
        assert!(read > 0, "stream closed early: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buffer[..read]));
    }
    assert!(seen.starts_with("HTTP/1.1 200 OK"), "{seen}");
    sigterm_and_wait(child);
}

#[test]
fn oauth_prints_its_url_and_rejects_unauthenticated_requests() {
    let (child, url, listening) = start(&["--http", "127.0.0.1:0", "--oauth"]);
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    assert!(url.ends_with("/mcp"), "{url}");
    assert!(!url.ends_with(":0/mcp"), "{url}");
    assert_eq!(listening, format!("listening on {url}"));
    let (status, challenge) = post_without_token(&url, "/mcp");
    assert_eq!(status, "HTTP/1.1 401 Unauthorized");
    let base = url.trim_end_matches("/mcp");
    assert_eq!(
        challenge.as_deref(),
        Some(
            format!(
                "Bearer resource_metadata=\"{base}/.well-known/oauth-protected-resource/mcp\", \
                 scope=\"mcp:read mcp:write\""
            )
            .as_str()
        )
    );
    assert_eq!(
        get_status_line(&url, "/.well-known/oauth-protected-resource/mcp"),
        "HTTP/1.1 200 OK"
    );
    sigterm_and_wait(child);
}
