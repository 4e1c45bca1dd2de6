//! An HTTP proxy that breaks one Streamable HTTP rule of `periscope check` on purpose, in
//! front of a real server: `faulty-http <rule id> <upstream URL>`. It prints its own URL (the
//! upstream's path on 127.0.0.1 and a free port) on stdout, then forwards each request,
//! changing only what the rule's fault changes (`tests/tests/cli_check.rs`, and
//! `check_agreement.rs`, where the official suite meets the same faults). One request per
//! connection; response bodies (SSE streams too) are copied as they come, but for the faults
//! that change a JSON-RPC answer, whose POST responses are read whole and rewritten.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

/// A request or response head: the first line and the headers, in order.
struct Head {
    line: String,
    headers: Vec<(String, String)>,
}

impl Head {
    fn read(reader: &mut impl BufRead) -> Option<Head> {
        let mut line = String::new();
        reader.read_line(&mut line).ok()?;
        if line.trim().is_empty() {
            return None;
        }
        let mut headers = Vec::new();
        loop {
            let mut header = String::new();
            reader.read_line(&mut header).ok()?;
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            let (name, value) = header.split_once(':')?;
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
        }
        Some(Head {
            line: line.trim_end().to_string(),
            headers,
        })
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn set(&mut self, name: &str, value: &str) {
        self.headers.retain(|(n, _)| n != name);
        self.headers.push((name.to_string(), value.to_string()));
    }

    fn remove(&mut self, name: &str) {
        self.headers.retain(|(n, _)| n != name);
    }

    fn write(&self, out: &mut impl Write) -> std::io::Result<()> {
        write!(out, "{}\r\n", self.line)?;
        for (name, value) in &self.headers {
            write!(out, "{name}: {value}\r\n")?;
        }
        write!(out, "\r\n")
    }
}

struct Proxy {
    fault: String,
    upstream: String,
    /// The last session id the server gave.
    session: Mutex<Option<String>>,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(fault), Some(upstream_url)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: faulty-http <rule id> <upstream URL>");
        std::process::exit(2);
    };
    let rest = upstream_url
        .strip_prefix("http://")
        .expect("an http:// upstream");
    let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    let port = listener.local_addr().unwrap().port();
    println!("http://127.0.0.1:{port}/{path}");
    let _ = std::io::stdout().flush();
    let proxy = Arc::new(Proxy {
        fault: fault.clone(),
        upstream: authority.to_string(),
        session: Mutex::new(None),
    });
    for client in listener.incoming().flatten() {
        let proxy = proxy.clone();
        std::thread::spawn(move || {
            let _ = proxy.serve(client);
        });
    }
}

fn respond(
    client: &mut TcpStream,
    status: &str,
    content_type: &str,
    body: &str,
) -> std::io::Result<()> {
    write!(
        client,
        "HTTP/1.1 {status}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
}

impl Proxy {
    fn serve(&self, mut client: TcpStream) -> std::io::Result<()> {
        let mut reader = BufReader::new(client.try_clone()?);
        let Some(mut head) = Head::read(&mut reader) else {
            return Ok(());
        };
        let length: usize = head
            .get("content-length")
            .and_then(|l| l.parse().ok())
            .unwrap_or(0);
        let mut body = vec![0; length];
        reader.read_exact(&mut body)?;
        let message: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
        let method = head.line.split(' ').next().unwrap_or("").to_string();
        let session = self.session.lock().unwrap().clone();
        match self.fault.as_str() {
            "http.session-id-ascii" => {
                if let Some(id) = head.get("mcp-session-id").map(str::to_string) {
                    head.set("mcp-session-id", id.trim_end_matches(" x"));
                }
            }
            "http.unknown-session"
                if head.get("mcp-session-id") == Some("periscope-check-no-such-session") =>
            {
                if let Some(id) = &session {
                    head.set("mcp-session-id", id);
                }
            }
            "http.missing-session"
                if method == "POST"
                    && head.get("mcp-session-id").is_none()
                    && message["method"] != "initialize" =>
            {
                if let Some(id) = &session {
                    head.set("mcp-session-id", id);
                }
            }
            "http.deleted-session" if method == "DELETE" => {
                return respond(&mut client, "200 OK", "text/plain", "");
            }
            "http.protocol-version-header"
                if head.get("mcp-protocol-version") == Some("1999-01-01") =>
            {
                let version = message
                    .pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
                    .and_then(|v| v.as_str())
                    .unwrap_or("2025-11-25")
                    .to_string();
                head.set("mcp-protocol-version", &version);
            }
            "http.accept-header" if head.get("accept") == Some("text/plain") => {
                head.set("accept", "application/json, text/event-stream");
            }
            "http.content-type" if head.get("content-type") == Some("text/plain") => {
                head.set("content-type", "application/json");
            }
            "http.get-stream" if method == "GET" => {
                return respond(&mut client, "200 OK", "text/plain", "hello");
            }
            "http.method-header" => {
                if let Some(body_method) = message["method"].as_str()
                    && head.get("mcp-method").is_some()
                {
                    head.set("mcp-method", body_method);
                }
            }
            // A token in the query string is taken: moved into the header the server reads.
            "http.token-in-query" if head.get("authorization").is_none() => {
                let mut parts = head.line.splitn(3, ' ');
                let (verb, target, version) = (
                    parts.next().unwrap_or("").to_string(),
                    parts.next().unwrap_or("").to_string(),
                    parts.next().unwrap_or("").to_string(),
                );
                if let Some((path, query)) = target.split_once('?')
                    && let Some(token) = query
                        .split('&')
                        .find_map(|pair| pair.strip_prefix("access_token="))
                {
                    head.set(
                        "authorization",
                        &format!("Bearer {}", percent_decoded(token)),
                    );
                    head.line = format!("{verb} {path} {version}");
                }
            }
            // No DNS-rebinding protection: the page's Origin and Host never reach the server.
            "http.origin" => {
                head.remove("origin");
                head.set("host", &self.upstream);
            }
            _ => {}
        }
        // The Host header goes through as the client sent it (a loopback name with this
        // proxy's port), so the server's own Host check still sees what the client sent.
        head.set("connection", "close");
        let mut upstream = TcpStream::connect(&self.upstream)?;
        head.write(&mut upstream)?;
        upstream.write_all(&body)?;
        let mut from = BufReader::new(upstream);
        let Some(mut reply) = Head::read(&mut from) else {
            return Ok(());
        };
        if let Some(id) = reply.get("mcp-session-id").map(str::to_string) {
            *self.session.lock().unwrap() = Some(id.clone());
            if self.fault == "http.session-id-ascii" {
                reply.set("mcp-session-id", &format!("{id} x"));
            }
        }
        let status = reply.line.split(' ').nth(1).unwrap_or("").to_string();
        if self.fault == "http.notification-accepted" && status == "202" {
            return respond(&mut client, "200 OK", "application/json", "{}");
        }
        if self.fault == "http.auth-challenge" && status == "401" {
            reply.remove("www-authenticate");
        }
        if method == "POST" && answer_fault(&self.fault, &message).is_some() {
            // The whole answer, rewritten (a POST's stream ends with its response).
            let mut body = Vec::new();
            if reply.get("transfer-encoding") == Some("chunked") {
                body = dechunk(&mut from)?;
            } else {
                (&mut from).take(16 << 20).read_to_end(&mut body)?;
            }
            let text = rewrite(&self.fault, &message, &String::from_utf8_lossy(&body));
            reply.remove("transfer-encoding");
            reply.set("content-length", &text.len().to_string());
            reply.set("connection", "close");
            reply.write(&mut client)?;
            client.write_all(text.as_bytes())?;
            return Ok(());
        }
        reply.set("connection", "close");
        reply.write(&mut client)?;
        std::io::copy(&mut from, &mut client)?;
        Ok(())
    }
}

/// Reads a chunked body to its end.
/// `a%2Bb` → `a+b`: a query value as the server reads it.
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn dechunk(from: &mut impl BufRead) -> std::io::Result<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let mut size = String::new();
        if from.read_line(&mut size)? == 0 {
            return Ok(body);
        }
        let size =
            usize::from_str_radix(size.trim().split(';').next().unwrap_or("0"), 16).unwrap_or(0);
        if size == 0 {
            return Ok(body);
        }
        if body.len() + size > 16 << 20 {
            return Ok(body); // an answer this big is not one the faults rewrite
        }
        let mut chunk = vec![0; size];
        from.read_exact(&mut chunk)?;
        body.extend(chunk);
        let mut end = String::new();
        from.read_line(&mut end)?;
    }
}

/// The change a fault makes to the answer to `request`, if it changes this one.
fn answer_fault(fault: &str, request: &serde_json::Value) -> Option<fn(&mut serde_json::Value)> {
    let method = request["method"].as_str()?;
    let change: fn(&mut serde_json::Value) = match (fault, method) {
        ("lists.tools", "tools/list") => |m| {
            if let Some(tool) = m
                .pointer_mut("/result/tools/0")
                .and_then(|t| t.as_object_mut())
            {
                tool.remove("inputSchema");
            }
        },
        ("lists.resources", "resources/list") => |m| {
            if let Some(r) = m
                .pointer_mut("/result/resources/0")
                .and_then(|t| t.as_object_mut())
            {
                r.remove("uri");
            }
        },
        ("lists.prompts", "prompts/list") => |m| {
            if let Some(p) = m
                .pointer_mut("/result/prompts/0")
                .and_then(|t| t.as_object_mut())
            {
                p.remove("name");
            }
        },
        ("utilities.ping", "ping") | ("utilities.logging-set-level", "logging/setLevel") => |m| {
            let id = m["id"].clone();
            *m = serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32603, "message": "refused"}});
        },
        ("resources.unknown-uri", "resources/read")
            if request
                .pointer("/params/uri")
                .and_then(|u| u.as_str())
                .is_some_and(|u| !u.starts_with("demo://")) =>
        {
            |m| {
                let id = m["id"].clone();
                *m = serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {"contents": []}});
            }
        }
        ("utilities.cache-hints", _) => |m| {
            if let Some(result) = m.get_mut("result").and_then(|r| r.as_object_mut())
                && result.contains_key("ttlMs")
            {
                result.insert("ttlMs".into(), serde_json::json!(-5));
            }
        },
        _ => return None,
    };
    Some(change)
}

/// The answer body with the fault's change made to its JSON-RPC response (a JSON body, or
/// the `data:` of an SSE event).
fn rewrite(fault: &str, request: &serde_json::Value, body: &str) -> String {
    let Some(change) = answer_fault(fault, request) else {
        return body.to_string();
    };
    let mend = |text: &str| -> Option<String> {
        let mut message: serde_json::Value = serde_json::from_str(text).ok()?;
        if message.get("id").is_some() && message.get("method").is_none() {
            change(&mut message);
        }
        Some(message.to_string())
    };
    if let Some(mended) = mend(body) {
        return mended;
    }
    body.split('\n')
        .map(
            |line| match line.strip_prefix("data:").and_then(|d| mend(d.trim())) {
                Some(mended) => format!("data: {mended}"),
                None => line.to_string(),
            },
        )
        .collect::<Vec<_>>()
        .join("\n")
}
