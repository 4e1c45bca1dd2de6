//! An MCP server over HTTP that attacks its client, one way per mode: the chaos suite's fixture
//! (tests/tests/chaos_http.rs, docs/chaos.md). Hand-written on a plain TCP socket so it can
//! send exactly the wrong bytes, as slowly or as endlessly as it likes; big bodies are
//! generated as they are written, never held.
//!
//! Usage: `chaos-http <mode> [args]`; prints its URL (`http://127.0.0.1:PORT/mcp`) on stdout.
//! `initialize`, notifications (202), `ping` and DELETE work unless the mode says otherwise; a
//! GET without `Last-Event-ID` gets 405 (no standalone stream). Every other request (e.g.
//! `tools/list`) gets the mode's attack:
//!
//! - `no-headers`: every POST, `initialize` included, is read and never answered (the
//!   connection stays open).
//! - `no-headers-later`: `initialize` works; then requests are never answered.
//! - `slow-headers`: the status line and headers drip out a byte every 100 ms, endlessly.
//! - `slow-json`: a JSON answer whose body drips out a byte every 200 ms.
//! - `slow-sse`: an SSE answer whose event drips out a byte every 200 ms.
//! - `sse-reset`: an SSE answer with a priming event (`id: ev-1`, `retry: 100`), then half of
//!   the answer's event, then a TCP reset. A GET with `Last-Event-ID` gets the whole event.
//! - `sse-reset-always`: the same, and every resumption is reset mid-event too.
//! - `gigabyte-json BYTES`: `Content-Length: BYTES` of JSON-looking text, all of it sent.
//! - `endless-sse-line`: an SSE answer whose `data:` line never ends.
//! - `redirect-loop`: every POST gets 307 to `/mcp?hop=N+1`.
//! - `close-in-handshake`: the `initialize` POST is read, then the connection is closed.
//! - `length-lies`: `Content-Length: 1099511627776` (1 TiB), 64 bytes, then the end.
//! - `endless-header`: a response header line that never ends.
//! - `legacy-elsewhere LOG`: a 2024-11-05 HTTP+SSE server whose `endpoint` event names another
//!   origin: a second listener (another port) that answers 202 to anything and logs each
//!   request to LOG as `METHOD PATH header-names…`.
//! - `tripwire LOG`: answers 404 to anything and logs each request line (a proxy's request
//!   line holds the absolute URL) to LOG: set as `http_proxy`, it shows whether a request
//!   left for an address nobody should fetch.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde_json::{Value, json};

/// The answer an `sse-reset` stream was cut in the middle of, for its resumption.
static PENDING_ANSWER: Mutex<Option<Vec<u8>>> = Mutex::new(None);
static HOPS: AtomicU64 = AtomicU64::new(0);
static EVENT_IDS: AtomicU64 = AtomicU64::new(1);

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = args.first().cloned().unwrap_or_default();
    let log = args.get(1).cloned().unwrap_or_default();
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let base = format!("http://{}", listener.local_addr().unwrap());
    println!("{base}/mcp");
    std::io::stdout().flush().unwrap();
    let elsewhere = if mode == "legacy-elsewhere" {
        let other = TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}/messages", other.local_addr().unwrap());
        let log = log.clone();
        std::thread::spawn(move || {
            for stream in other.incoming().flatten() {
                let log = log.clone();
                std::thread::spawn(move || tripwire(stream, &log, "202 Accepted"));
            }
        });
        url
    } else {
        String::new()
    };
    for stream in listener.incoming().flatten() {
        let (mode, log, elsewhere) = (mode.clone(), log.clone(), elsewhere.clone());
        std::thread::spawn(move || {
            if mode == "tripwire" {
                tripwire(stream, &log, "404 Not Found");
            } else {
                let _ = serve(stream, &mode, &elsewhere);
            }
        });
    }
}

struct Request {
    line: String,
    method: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Request {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

fn read_request(reader: &mut BufReader<TcpStream>) -> std::io::Result<Option<Request>> {
    let mut line = String::new();
    if reader.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    let method = line.split_whitespace().next().unwrap_or("").to_string();
    let mut headers = Vec::new();
    loop {
        let mut header = String::new();
        reader.read_line(&mut header)?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((k, v)) = header.split_once(':') {
            headers.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    let length = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    Ok(Some(Request {
        line: line.trim_end().to_string(),
        method,
        headers,
        body,
    }))
}

fn respond(
    out: &mut TcpStream,
    status: &str,
    content_type: &str,
    body: &[u8],
) -> std::io::Result<()> {
    write!(
        out,
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nMcp-Session-Id: chaos-1\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    out.write_all(body)?;
    out.flush()
}

fn sse_head(out: &mut TcpStream) -> std::io::Result<()> {
    write!(
        out,
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nMcp-Session-Id: chaos-1\r\nConnection: close\r\n\r\n"
    )?;
    out.flush()
}

fn hold_forever() -> ! {
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}

/// Writes `bytes` one at a time, `every` apart, until the client hangs up.
fn drip(out: &mut TcpStream, bytes: &[u8], every: Duration) -> std::io::Result<()> {
    for b in bytes {
        out.write_all(&[*b])?;
        out.flush()?;
        std::thread::sleep(every);
    }
    Ok(())
}

/// Writes `byte` until `n` are out (or forever with `None`), a megabyte at a time.
fn flood(out: &mut TcpStream, byte: u8, n: Option<u64>) -> std::io::Result<()> {
    let chunk = vec![byte; 1 << 20];
    let mut left = n.unwrap_or(u64::MAX);
    while left > 0 {
        let len = left.min(chunk.len() as u64) as usize;
        out.write_all(&chunk[..len])?;
        left -= len as u64;
    }
    out.flush()
}

/// Closes with a TCP reset (RST) instead of a polite FIN: SO_LINGER with a zero timeout.
fn reset(out: TcpStream) {
    use std::os::fd::AsRawFd;
    let linger = libc::linger {
        l_onoff: 1,
        l_linger: 0,
    };
    // SAFETY: a valid socket and a properly sized linger value.
    unsafe {
        libc::setsockopt(
            out.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_LINGER,
            (&linger as *const libc::linger).cast(),
            std::mem::size_of::<libc::linger>() as libc::socklen_t,
        );
    }
    drop(out);
}

fn serve(stream: TcpStream, mode: &str, elsewhere: &str) -> std::io::Result<()> {
    let mut out = stream.try_clone()?;
    let mut reader = BufReader::new(stream);
    let Some(req) = read_request(&mut reader)? else {
        return Ok(());
    };
    if mode == "legacy-elsewhere" {
        return legacy(out, &req, elsewhere);
    }
    match req.method.as_str() {
        "GET" => {
            return match req.header("last-event-id") {
                Some(_) if mode.starts_with("sse-reset") => resume(out, mode),
                _ => respond(&mut out, "405 Method Not Allowed", "text/plain", b""),
            };
        }
        "DELETE" => return respond(&mut out, "200 OK", "text/plain", b""),
        _ => {}
    }
    if mode == "no-headers" {
        hold_forever();
    }
    if mode == "redirect-loop" {
        let hop = HOPS.fetch_add(1, Ordering::SeqCst) + 1;
        write!(
            out,
            "HTTP/1.1 307 Temporary Redirect\r\nLocation: /mcp?hop={hop}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        )?;
        return out.flush();
    }
    let msg: Value = serde_json::from_slice(&req.body).unwrap_or(Value::Null);
    let method = msg.get("method").and_then(Value::as_str).unwrap_or("");
    let Some(id) = msg.get("id").cloned() else {
        return respond(&mut out, "202 Accepted", "text/plain", b"");
    };
    let ok = |result: Value| {
        serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": id, "result": result})).unwrap()
    };
    match method {
        "initialize" if mode == "close-in-handshake" => out.shutdown(std::net::Shutdown::Both),
        "initialize" => respond(
            &mut out,
            "200 OK",
            "application/json",
            &ok(json!({
                "protocolVersion": "2025-11-25",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "chaos-http", "version": "1.0.0"},
            })),
        ),
        "ping" => respond(&mut out, "200 OK", "application/json", &ok(json!({}))),
        _ => attack(
            out,
            mode,
            &ok(json!({"tools": [{"name": "noop", "inputSchema": {"type": "object"}}]})),
        ),
    }
}

fn attack(mut out: TcpStream, mode: &str, answer: &[u8]) -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(2).collect();
    match mode {
        "no-headers-later" => hold_forever(),
        "slow-headers" => {
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Slow: ".to_string()
                + &"z".repeat(1 << 20);
            drip(&mut out, head.as_bytes(), Duration::from_millis(100))
        }
        "slow-json" => {
            write!(
                out,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                answer.len()
            )?;
            drip(&mut out, answer, Duration::from_millis(200))
        }
        "slow-sse" => {
            sse_head(&mut out)?;
            let mut event = b"event: message\ndata: ".to_vec();
            event.extend_from_slice(answer);
            event.extend_from_slice(b"\n\n");
            drip(&mut out, &event, Duration::from_millis(200))
        }
        "sse-reset" | "sse-reset-always" => {
            *PENDING_ANSWER.lock().unwrap() = Some(answer.to_vec());
            cut_mid_event(out, answer)
        }
        "gigabyte-json" => {
            let n: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(1 << 30);
            write!(
                out,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {n}\r\nMcp-Session-Id: chaos-1\r\nConnection: close\r\n\r\n"
            )?;
            let start = br#"{"jsonrpc":"2.0","id":2,"result":{"tools":[],"pad":""#;
            out.write_all(start)?;
            flood(&mut out, b'x', Some(n - start.len() as u64))
        }
        "endless-sse-line" => {
            sse_head(&mut out)?;
            out.write_all(b"event: message\ndata: ")?;
            flood(&mut out, b'x', None)
        }
        "length-lies" => {
            write!(
                out,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1099511627776\r\nConnection: close\r\n\r\n"
            )?;
            out.write_all(&answer[..answer.len().min(64)])?;
            out.flush()?;
            out.shutdown(std::net::Shutdown::Both)
        }
        "endless-header" => {
            out.write_all(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Endless: ")?;
            flood(&mut out, b'h', None)
        }
        _ => respond(&mut out, "200 OK", "application/json", answer),
    }
}

/// A priming event with an id, then half of the answer's event, then a reset.
fn cut_mid_event(mut out: TcpStream, answer: &[u8]) -> std::io::Result<()> {
    sse_head(&mut out)?;
    let id = EVENT_IDS.fetch_add(1, Ordering::SeqCst);
    write!(out, "id: ev-{id}\nretry: 100\ndata: \n\n")?;
    out.write_all(b"event: message\ndata: ")?;
    out.write_all(&answer[..answer.len() / 2])?;
    out.flush()?;
    std::thread::sleep(Duration::from_millis(50));
    reset(out);
    Ok(())
}

/// A GET with `Last-Event-ID`: the answer whole (`sse-reset`), or cut again.
fn resume(mut out: TcpStream, mode: &str) -> std::io::Result<()> {
    let answer = PENDING_ANSWER.lock().unwrap().clone().unwrap_or_default();
    if mode == "sse-reset-always" {
        return cut_mid_event(out, &answer);
    }
    sse_head(&mut out)?;
    let id = EVENT_IDS.fetch_add(1, Ordering::SeqCst);
    write!(out, "id: ev-{id}\nevent: message\ndata: ")?;
    out.write_all(&answer)?;
    out.write_all(b"\n\n")?;
    out.flush()
}

/// The legacy transport: GET opens the stream whose `endpoint` event names `elsewhere`.
fn legacy(mut out: TcpStream, req: &Request, elsewhere: &str) -> std::io::Result<()> {
    if req.method != "GET" {
        return respond(&mut out, "404 Not Found", "text/plain", b"");
    }
    sse_head(&mut out)?;
    write!(out, "event: endpoint\ndata: {elsewhere}\n\n")?;
    out.flush()?;
    hold_forever()
}

/// Logs the request and answers `status`: the other origin of `legacy-elsewhere`, and the
/// `tripwire` proxy.
fn tripwire(stream: TcpStream, log: &str, status: &str) {
    let Ok(mut out) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(stream);
    while let Ok(Some(req)) = read_request(&mut reader) {
        let names: Vec<&str> = req.headers.iter().map(|(k, _)| k.as_str()).collect();
        if let Ok(mut file) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
        {
            let _ = writeln!(file, "{} {}", req.line, names.join(" "));
        }
        let _ = respond(&mut out, status, "text/plain", b"");
    }
}
