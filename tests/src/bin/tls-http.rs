//! A small legacy-era MCP server over HTTPS, for the TLS failures the connection doctor names.
//!
//! Usage: `tls-http CERT.pem KEY.pem`; prints its URL (`https://127.0.0.1:PORT/mcp`) on stdout.
//! It answers `initialize`, `ping` and `tools/list` (one tool, `noop`), any other request with
//! -32601, notifications with 202, GET with 405. The certificates are in tests/fixtures/tls.

use std::io::{BufReader, Write};
use std::net::TcpListener;
use std::sync::Arc;

use periscope_tests::http_fixture::read_request;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use serde_json::{Value, json};

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(cert), Some(key)) = (args.next(), args.next()) else {
        eprintln!("usage: tls-http CERT.pem KEY.pem");
        std::process::exit(2);
    };
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(&cert)
        .expect("the certificate file reads")
        .collect::<Result<_, _>>()
        .expect("the certificate parses");
    let key = PrivateKeyDer::from_pem_file(&key).expect("the key parses");
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .expect("the certificate and key match");
    let config = Arc::new(config);
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    println!("https://{}/mcp", listener.local_addr().unwrap());
    std::io::stdout().flush().unwrap();
    for stream in listener.incoming().flatten() {
        let config = config.clone();
        std::thread::spawn(move || {
            let Ok(connection) = rustls::ServerConnection::new(config) else {
                return;
            };
            // A client that refuses the certificate ends the handshake: nothing to serve.
            let _ = serve(rustls::StreamOwned::new(connection, stream));
        });
    }
}

fn serve(
    stream: rustls::StreamOwned<rustls::ServerConnection, std::net::TcpStream>,
) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream);
    let Some(request) = read_request(&mut reader)? else {
        return Ok(());
    };
    let (method, body) = (request.method, request.body);
    let out = reader.get_mut();
    if method != "POST" {
        let status = if method == "DELETE" {
            "200 OK"
        } else {
            "405 Method Not Allowed"
        };
        return respond(out, status, b"");
    }
    let msg: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let Some(id) = msg.get("id").cloned() else {
        return respond(out, "202 Accepted", b"");
    };
    let answer = match msg.get("method").and_then(Value::as_str).unwrap_or("") {
        "initialize" => json!({"jsonrpc": "2.0", "id": id, "result": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "tls-http", "version": "1.0.0"},
        }}),
        "ping" => json!({"jsonrpc": "2.0", "id": id, "result": {}}),
        "tools/list" => json!({"jsonrpc": "2.0", "id": id, "result": {
            "tools": [{"name": "noop", "inputSchema": {"type": "object"}}],
        }}),
        other => json!({"jsonrpc": "2.0", "id": id, "error": {
            "code": -32601, "message": format!("method not found: {other}"),
        }}),
    };
    respond(out, "200 OK", &serde_json::to_vec(&answer).unwrap())
}

fn respond(out: &mut impl Write, status: &str, body: &[u8]) -> std::io::Result<()> {
    write!(
        out,
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    out.write_all(body)?;
    out.flush()
}
