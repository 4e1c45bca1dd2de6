//! A small MCP server over HTTP that breaks the rules on purpose, one way per mode. Hand-written
//! on a plain TCP socket, so it can send exactly the wrong bytes.
//!
//! Usage: `misbehaving-http <mode>`; prints its URL (`http://127.0.0.1:PORT/mcp`) on stdout.
//! `initialize`, notifications, `ping` and DELETE work (unless the mode says otherwise); every
//! other request (e.g. `tools/list`) gets the mode's misbehaviour:
//!
//! - `html`: 200 with an HTML login page.
//! - `wrong-content-type`: 200 `text/plain` holding a correct JSON response.
//! - `malformed-sse`: 200 `text/event-stream` whose lines are not SSE fields, then EOF.
//! - `huge-sse`: 200 `text/event-stream` with one 20 MB event holding the response.
//! - `error-500`: 500 with a text body.
//! - `reset`: 200 `text/event-stream`, half an event, then the connection is cut.
//! - `endless`: 200 `text/event-stream` with keep-alive comments forever and no answer.
//! - `ignore-delete`: everything works, but DELETE is never answered.
//! - `expire-session`: the first `tools/list` gets 404, as if the server had forgotten the
//!   session; everything after that works.
//! - `legacy-elsewhere URL`: a legacy HTTP+SSE server whose `endpoint` event names URL (another
//!   origin); the stream then stays open.
//! - `wrong-path`: only `/mcp` is the endpoint (all of it works there); any other path gets
//!   404 with an HTML page, as a web server's catch-all would.
//! - `no-challenge`: every request gets 401 without a `WWW-Authenticate` header.

use std::io::{BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use periscope_tests::http_fixture::read_request;
use serde_json::{Value, json};

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    println!("http://{}/mcp", listener.local_addr().unwrap());
    std::io::stdout().flush().unwrap();
    for stream in listener.incoming().flatten() {
        let mode = mode.clone();
        std::thread::spawn(move || {
            let _ = serve(stream, &mode);
        });
    }
}

fn respond(
    out: &mut TcpStream,
    status: &str,
    content_type: &str,
    body: &[u8],
) -> std::io::Result<()> {
    write!(
        out,
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nMcp-Session-Id: misbehaving-1\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    out.write_all(body)?;
    out.flush()
}

fn sse_head(out: &mut TcpStream) -> std::io::Result<()> {
    write!(
        out,
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nMcp-Session-Id: misbehaving-1\r\nConnection: close\r\n\r\n"
    )?;
    out.flush()
}

fn serve(stream: TcpStream, mode: &str) -> std::io::Result<()> {
    let mut out = stream.try_clone()?;
    let mut reader = BufReader::new(stream);
    let Some(req) = read_request(&mut reader)? else {
        return Ok(());
    };
    if mode == "no-challenge" {
        return respond(&mut out, "401 Unauthorized", "text/plain", b"who are you?");
    }
    if mode == "wrong-path" && req.path != "/mcp" {
        return respond(
            &mut out,
            "404 Not Found",
            "text/html",
            b"<!doctype html><html><body>Not found</body></html>",
        );
    }
    match req.method.as_str() {
        "GET" if mode == "legacy-elsewhere" => {
            let endpoint = std::env::args().nth(2).unwrap_or_default();
            sse_head(&mut out)?;
            write!(out, "event: endpoint\ndata: {endpoint}\n\n")?;
            out.flush()?;
            std::thread::sleep(Duration::from_secs(3600));
            return Ok(());
        }
        "GET" => return respond(&mut out, "405 Method Not Allowed", "text/plain", b""),
        "DELETE" if mode == "ignore-delete" => {
            std::thread::sleep(Duration::from_secs(3600));
            return Ok(());
        }
        "DELETE" => return respond(&mut out, "200 OK", "text/plain", b""),
        _ => {}
    }
    let msg: Value = serde_json::from_slice(&req.body).unwrap_or(Value::Null);
    let id = msg.get("id").cloned();
    let method = msg.get("method").and_then(Value::as_str).unwrap_or("");
    let Some(id) = id else {
        return respond(&mut out, "202 Accepted", "text/plain", b"");
    };
    let ok = |result: Value| {
        serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": id, "result": result})).unwrap()
    };
    match method {
        "initialize" => respond(
            &mut out,
            "200 OK",
            "application/json",
            &ok(json!({
                "protocolVersion": "2025-11-25",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "misbehaving-http", "version": "1.0.0"},
            })),
        ),
        "ping" => respond(&mut out, "200 OK", "application/json", &ok(json!({}))),
        _ => misbehave(
            &mut out,
            mode,
            &ok(json!({"tools": [{"name": "noop", "inputSchema": {"type": "object"}}]})),
        ),
    }
}

/// Whether `expire-session` has forgotten the session once already.
static EXPIRED: AtomicBool = AtomicBool::new(false);

fn misbehave(out: &mut TcpStream, mode: &str, answer: &[u8]) -> std::io::Result<()> {
    match mode {
        "expire-session" if !EXPIRED.swap(true, Ordering::SeqCst) => {
            respond(out, "404 Not Found", "text/plain", b"no such session")
        }
        "html" => respond(
            out,
            "200 OK",
            "text/html; charset=utf-8",
            b"<!doctype html><html><body><h1>Please log in</h1></body></html>",
        ),
        "wrong-content-type" => respond(out, "200 OK", "text/plain", answer),
        "malformed-sse" => {
            sse_head(out)?;
            out.write_all(b"this is not an sse field\n{\"jsonrpc\":\"2.0\"}\n\n")?;
            out.flush()
        }
        "huge-sse" => {
            sse_head(out)?;
            let mut big: Value = serde_json::from_slice(answer).unwrap();
            big["result"]["tools"][0]["description"] = Value::String("x".repeat(20 * 1024 * 1024));
            out.write_all(b"event: message\ndata: ")?;
            out.write_all(&serde_json::to_vec(&big).unwrap())?;
            out.write_all(b"\n\n")?;
            out.flush()
        }
        "error-500" => respond(
            out,
            "500 Internal Server Error",
            "text/plain",
            b"database is down",
        ),
        "reset" => {
            sse_head(out)?;
            out.write_all(b"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\"")?;
            out.flush()?;
            out.shutdown(std::net::Shutdown::Both)
        }
        "endless" => {
            sse_head(out)?;
            loop {
                out.write_all(b": still thinking\n\n")?;
                out.flush()?;
                std::thread::sleep(Duration::from_millis(100));
            }
        }
        _ => respond(out, "200 OK", "application/json", answer),
    }
}
