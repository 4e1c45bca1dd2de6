//! An MCP server with its own authorization server on one port, hand-written on a plain TCP
//! socket so each mode can break exactly one security rule of the sign-in.
//!
//! Usage: `hostile-oauth <mode> <log file>`; prints its MCP URL (`http://127.0.0.1:PORT/mcp`).
//! Every request is appended to the log as `METHOD PATH AUTHORIZATION-HEADER` (the header
//! value as sent, or `-`), so a test can see where a token went and whether an endpoint was
//! reached at all. The access token it issues is `hostile-access-token-1234567890`.
//!
//! Modes: `good` (a correct flow), `wrong-state` (the redirect carries another state),
//! `wrong-iss` (the redirect's `iss` names another issuer), `resource-mismatch` (the resource
//! metadata names another server), `http-as` (the authorization server is plain http on a
//! non-loopback host), `redirect-elsewhere` (the authorization endpoint redirects to another
//! port), `redirect-other-path` (to another path), `no-s256` (metadata without S256),
//! `metadata-ssrf` (the challenge's `resource_metadata` points at the cloud metadata service,
//! `https://169.254.169.254/…`), `issuer-mismatch` (the authorization server metadata names
//! another issuer), `endless-metadata` (the resource metadata answer never ends: no length,
//! bytes until the client hangs up); for the chaos suite: `always-401` (the MCP endpoint
//! refuses every token it issued), `imds-metadata` (the challenge's `resource_metadata` is the
//! cloud metadata service over http, and nothing else is published).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};

use serde_json::{Value, json};

const TOKEN: &str = "hostile-access-token-1234567890";

struct Request {
    method: String,
    target: String,
    authorization: Option<String>,
    body: Vec<u8>,
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let log = std::env::args().nth(2).expect("a log file");
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let base = format!("http://{}", listener.local_addr().unwrap());
    println!("{base}/mcp");
    std::io::stdout().flush().unwrap();
    for stream in listener.incoming().flatten() {
        let (mode, log, base) = (mode.clone(), log.clone(), base.clone());
        std::thread::spawn(move || {
            let _ = serve(stream, &mode, &log, &base);
        });
    }
}

fn read_request(reader: &mut BufReader<TcpStream>) -> std::io::Result<Option<Request>> {
    let mut line = String::new();
    if reader.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("").to_string();
    let target = parts.next().unwrap_or("").to_string();
    let (mut length, mut authorization) = (0, None);
    loop {
        let mut header = String::new();
        reader.read_line(&mut header)?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((k, v)) = header.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                length = v.trim().parse().unwrap_or(0);
            } else if k.eq_ignore_ascii_case("authorization") {
                authorization = Some(v.trim().to_string());
            }
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    Ok(Some(Request {
        method,
        target,
        authorization,
        body,
    }))
}

fn respond(out: &mut TcpStream, status: &str, headers: &[(&str, String)], body: &[u8]) {
    let mut head = format!(
        "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    let _ = out.write_all(head.as_bytes());
    let _ = out.write_all(body);
    let _ = out.flush();
}

fn json_response(out: &mut TcpStream, status: &str, value: Value) {
    respond(
        out,
        status,
        &[("Content-Type", "application/json".into())],
        &serde_json::to_vec(&value).unwrap(),
    );
}

fn query(target: &str) -> Vec<(String, String)> {
    let url = format!("http://x{target}");
    let Some((_, q)) = url.split_once('?') else {
        return Vec::new();
    };
    q.split('&')
        .filter_map(|p| p.split_once('='))
        .map(|(k, v)| (k.to_string(), percent_decode(v)))
        .collect()
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("00");
                out.push(u8::from_str_radix(hex, 16).unwrap_or(b'?'));
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn serve(stream: TcpStream, mode: &str, log: &str, base: &str) -> std::io::Result<()> {
    let mut out = stream.try_clone()?;
    let mut reader = BufReader::new(stream);
    let Some(req) = read_request(&mut reader)? else {
        return Ok(());
    };
    let path = req.target.split('?').next().unwrap_or("").to_string();
    {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)?;
        writeln!(
            file,
            "{} {} {}",
            req.method,
            path,
            req.authorization.as_deref().unwrap_or("-")
        )?;
    }
    let issuer = base.to_string();
    let get = |k: &str| {
        query(&req.target)
            .into_iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v)
    };
    match (req.method.as_str(), path.as_str()) {
        // Only the challenge points anywhere: the metadata service, which must not be fetched.
        (_, p) if mode == "imds-metadata" && p != "/mcp" => {
            respond(&mut out, "404 Not Found", &[], b"")
        }
        (_, "/mcp") => {
            if req.authorization.as_deref() != Some(&format!("Bearer {TOKEN}"))
                || mode == "always-401"
            {
                let metadata = if mode == "metadata-ssrf" {
                    "https://169.254.169.254/latest/meta-data/iam/security-credentials/".to_string()
                } else if mode == "imds-metadata" {
                    "http://169.254.169.254/latest/meta-data/iam/security-credentials/".to_string()
                } else {
                    format!("{base}/.well-known/oauth-protected-resource/mcp")
                };
                respond(
                    &mut out,
                    "401 Unauthorized",
                    &[(
                        "WWW-Authenticate",
                        format!(r#"Bearer resource_metadata="{metadata}""#),
                    )],
                    b"",
                );
                return Ok(());
            }
            let msg: Value = serde_json::from_slice(&req.body).unwrap_or(Value::Null);
            let Some(id) = msg.get("id").cloned() else {
                respond(&mut out, "202 Accepted", &[], b"");
                return Ok(());
            };
            let result = match msg.get("method").and_then(Value::as_str) {
                Some("initialize") => json!({
                    "protocolVersion": "2025-11-25",
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "hostile-oauth", "version": "1"}
                }),
                Some("tools/list") => {
                    json!({"tools": [{"name": "noop", "inputSchema": {"type": "object"}}]})
                }
                _ => json!({}),
            };
            json_response(
                &mut out,
                "200 OK",
                json!({"jsonrpc": "2.0", "id": id, "result": result}),
            );
        }
        ("GET", "/.well-known/oauth-protected-resource/mcp") if mode == "endless-metadata" => {
            out.write_all(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{\"resource\": \"")?;
            let block = [b'x'; 64 * 1024];
            while out.write_all(&block).is_ok() {}
        }
        ("GET", "/.well-known/oauth-protected-resource/mcp") => {
            let resource = if mode == "resource-mismatch" {
                "https://evil.example.com/mcp".to_string()
            } else {
                format!("{base}/mcp")
            };
            let server = if mode == "http-as" {
                "http://as.example.com".to_string()
            } else {
                issuer.clone()
            };
            json_response(
                &mut out,
                "200 OK",
                json!({"resource": resource, "authorization_servers": [server]}),
            );
        }
        ("GET", "/.well-known/oauth-authorization-server") => {
            let methods = if mode == "no-s256" {
                json!(["plain"])
            } else {
                json!(["S256"])
            };
            json_response(
                &mut out,
                "200 OK",
                json!({
                    "issuer": if mode == "issuer-mismatch" { "https://evil.example".to_string() } else { issuer },
                    "authorization_endpoint": format!("{base}/authorize"),
                    "token_endpoint": format!("{base}/token"),
                    "registration_endpoint": format!("{base}/register"),
                    "response_types_supported": ["code"],
                    "code_challenge_methods_supported": methods,
                    "token_endpoint_auth_methods_supported": ["none"],
                    "authorization_response_iss_parameter_supported": true
                }),
            );
        }
        ("POST", "/register") => {
            json_response(
                &mut out,
                "201 Created",
                json!({"client_id": "hostile-client", "token_endpoint_auth_method": "none"}),
            );
        }
        ("GET", "/authorize") => {
            let redirect = get("redirect_uri").unwrap_or_default();
            let redirect = match mode {
                "redirect-elsewhere" => redirect.replacen("127.0.0.1:", "127.0.0.1:1", 1),
                "redirect-other-path" => redirect.replace("/callback", "/elsewhere"),
                _ => redirect,
            };
            let state = if mode == "wrong-state" {
                "forged".to_string()
            } else {
                get("state").unwrap_or_default()
            };
            let iss = if mode == "wrong-iss" {
                "https://evil.example".to_string()
            } else {
                issuer.clone()
            };
            let location = format!(
                "{redirect}?code=hostile-code&state={state}&iss={}",
                iss.replace(':', "%3A").replace('/', "%2F")
            );
            respond(&mut out, "302 Found", &[("Location", location)], b"");
        }
        ("POST", "/token") => {
            json_response(
                &mut out,
                "200 OK",
                json!({"access_token": TOKEN, "token_type": "Bearer", "expires_in": 3600, "refresh_token": "hostile-refresh-token-0987654321"}),
            );
        }
        _ => respond(&mut out, "404 Not Found", &[], b""),
    }
    Ok(())
}
