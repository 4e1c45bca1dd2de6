//! Secrets given to the `periscope` CLI by reference (`--header-from-env`, `--header-from-file`,
//! `--env-from-env`) instead of on its command line: each reaches the server, and none reaches
//! the record, the output or an error; nor does a key in the URL's query string. The record
//! file is owner-only.
//!
//! The HTTP server here is a small real MCP server on a TCP socket that notes the headers it
//! receives (and echoes one back, as careless servers do).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};

use periscope_tests::{bin, bin_str, scratch_dir, stderr, stdout};
use serde_json::{Value, json};

const TENANT_KEY: &str = "tenant-key-from-env-5c1e";
const BEARER: &str = "bearer-from-file-9a7d";
const QUERY_KEY: &str = "query-key-in-url-31f0";

type Seen = Arc<Mutex<Vec<Vec<(String, String)>>>>;

/// An MCP server over plain HTTP (JSON answers) that keeps every request's headers and echoes
/// `X-Tenant` back as `X-Echo`. Returns its base URL (`http://127.0.0.1:PORT/mcp`).
fn header_noting_server() -> (String, Seen) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let seen: Seen = Arc::default();
    let noted = seen.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let noted = noted.clone();
            std::thread::spawn(move || serve(stream, noted));
        }
    });
    (url, seen)
}

fn serve(stream: TcpStream, seen: Seen) {
    let mut out = stream.try_clone().unwrap();
    let mut reader = BufReader::new(stream);
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let method = line.split_whitespace().next().unwrap_or("").to_string();
        let mut headers = Vec::new();
        loop {
            let mut header = String::new();
            reader.read_line(&mut header).unwrap();
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((k, v)) = header.split_once(':') {
                headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
            }
        }
        let length = headers
            .iter()
            .find(|(k, _)| k == "content-length")
            .and_then(|(_, v)| v.parse().ok())
            .unwrap_or(0);
        let mut body = vec![0; length];
        reader.read_exact(&mut body).unwrap();
        let echo = headers
            .iter()
            .find(|(k, _)| k == "x-tenant")
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        seen.lock().unwrap().push(headers);
        let message: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        let (status, answer) = match (method.as_str(), message.get("id")) {
            ("POST", Some(id)) => {
                let result = match message["method"].as_str() {
                    Some("initialize") => json!({
                        "protocolVersion": "2025-06-18",
                        "capabilities": {"tools": {}},
                        "serverInfo": {"name": "header-noting", "version": "1.0.0"},
                    }),
                    _ => json!({"tools": [{"name": "noop", "inputSchema": {"type": "object"}}]}),
                };
                let body = json!({"jsonrpc": "2.0", "id": id, "result": result});
                ("200 OK", body.to_string())
            }
            ("POST", None) => ("202 Accepted", String::new()),
            _ => ("405 Method Not Allowed", String::new()),
        };
        let written = write!(
            out,
            "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nX-Echo: {echo}\r\nContent-Length: {}\r\n\r\n{answer}",
            answer.len()
        );
        if written.is_err() {
            return;
        }
    }
}

fn periscope(args: &[&str], env: &[(&str, &str)]) -> Output {
    Command::new(bin("periscope"))
        .args(args)
        .args(["--timeout", "30"])
        .envs(env.iter().copied())
        .output()
        .expect("periscope runs")
}

fn assert_no_secret(what: &str, text: &str) {
    for secret in [TENANT_KEY, BEARER, QUERY_KEY] {
        assert!(!text.contains(secret), "{what} holds a secret: {text}");
    }
}

#[test]
fn headers_from_an_environment_variable_and_a_file_reach_the_server_and_nothing_else() {
    let (url, seen) = header_noting_server();
    let dir = scratch_dir("cli-secrets-headers");
    let token_file = dir.join("token");
    std::fs::write(&token_file, format!("Bearer {BEARER}\n")).unwrap();
    let record = dir.join("record.jsonl");
    let url_with_key = format!("{url}?api_key={QUERY_KEY}");
    let out = periscope(
        &[
            "tools",
            "list",
            "--format",
            "json",
            "--url",
            &url_with_key,
            "--header-from-env",
            "X-Tenant=PERISCOPE_TEST_TENANT_KEY",
            "--header-from-file",
            &format!("Authorization={}", token_file.display()),
            "--record",
            record.to_str().unwrap(),
        ],
        &[("PERISCOPE_TEST_TENANT_KEY", TENANT_KEY)],
    );
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(&out));
    assert!(stdout(&out).contains("noop"), "{}", stdout(&out));

    // The server got both values, on every request.
    let requests = seen.lock().unwrap().clone();
    assert!(requests.len() >= 3, "{requests:?}");
    for headers in &requests {
        let value = |name: &str| {
            headers
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.as_str())
        };
        assert_eq!(value("x-tenant"), Some(TENANT_KEY));
        assert_eq!(
            value("authorization"),
            Some(format!("Bearer {BEARER}").as_str())
        );
    }

    // Nothing else did: not the output, not the record (not even the echo of X-Tenant, nor the
    // key in the URL), and the record is the owner's alone.
    assert_no_secret("stdout", &stdout(&out));
    assert_no_secret("stderr", &stderr(&out));
    let text = std::fs::read_to_string(&record).unwrap();
    assert_no_secret("the record", &text);
    let http: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|l| l["type"] == "http")
        .collect();
    assert!(!http.is_empty());
    for exchange in &http {
        let header = |side: &str, name: &str| {
            exchange[side]
                .as_array()
                .unwrap()
                .iter()
                .find(|h| h[0] == name)
                .map(|h| h[1].as_str().unwrap().to_string())
        };
        if exchange["method"] == "POST" {
            assert_eq!(
                header("request_headers", "x-tenant").as_deref(),
                Some("[redacted]")
            );
            assert_eq!(
                header("response_headers", "x-echo").as_deref(),
                Some("[redacted]")
            );
        }
        assert_eq!(
            exchange["url"].as_str().unwrap(),
            format!("{url}?api_key=[redacted]")
        );
    }
    let mode = std::fs::metadata(&record).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_key_in_the_url_stays_out_of_a_connection_error() {
    // Nothing listens on port 9 of the loopback address.
    let out = periscope(
        &[
            "ping",
            "--url",
            &format!("http://127.0.0.1:9/mcp?access_token={QUERY_KEY}"),
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(3), "stderr: {}", stderr(&out));
    assert!(
        stderr(&out).contains("access_token=[redacted]"),
        "{}",
        stderr(&out)
    );
    assert_no_secret("stderr", &stderr(&out));
    assert_no_secret("stdout", &stdout(&out));
}

#[test]
fn an_environment_value_from_a_variable_reaches_a_local_server_and_not_the_record() {
    let dir = scratch_dir("cli-secrets-env");
    let record = dir.join("record.jsonl");
    // The server starts only if API_KEY arrived; the expected value comes from a file so that
    // the command line holds no secret.
    let expected = dir.join("expected");
    std::fs::write(&expected, TENANT_KEY).unwrap();
    let script = format!(
        "test \"$API_KEY\" = \"$(cat {})\" || exit 9; exec {}",
        expected.display(),
        bin_str("periscope-demo-server")
    );
    let out = periscope(
        &[
            "ping",
            "--env-from-env",
            "API_KEY=PERISCOPE_TEST_API_KEY",
            "--record",
            record.to_str().unwrap(),
            "--",
            "sh",
            "-c",
            &script,
        ],
        &[("PERISCOPE_TEST_API_KEY", TENANT_KEY)],
    );
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(&out));
    assert_no_secret("stdout", &stdout(&out));
    assert_no_secret("stderr", &stderr(&out));
    let text = std::fs::read_to_string(&record).unwrap();
    assert_no_secret("the record", &text);
    assert!(text.contains("\"env_names\":[\"API_KEY\"]"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_variable_is_a_usage_error_that_names_it() {
    let out = periscope(
        &[
            "ping",
            "--url",
            "http://127.0.0.1:9/mcp",
            "--header-from-env",
            "X-Key=PERISCOPE_TEST_SURELY_UNSET",
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(2), "stderr: {}", stderr(&out));
    assert!(
        stderr(&out).contains("the environment variable PERISCOPE_TEST_SURELY_UNSET is not set"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn saved_run_fills_a_catalog_entrys_secret_from_the_apps_secret_store() {
    let data = scratch_dir("cli-secrets-saved-run");
    let dir = data.join("dev.periscope.app");
    std::fs::create_dir_all(&dir).unwrap();
    let expected = data.join("expected");
    std::fs::write(&expected, TENANT_KEY).unwrap();
    let script = format!(
        "test \"$API_KEY\" = \"$(cat {})\" || exit 9; exec {}",
        expected.display(),
        bin_str("periscope-demo-server")
    );
    // As the app writes them: the catalog holds the name, marked secret, with no value; the
    // owner-only credential file (the keychain's stand-in) holds the value under the entry.
    let catalog = json!({"servers": [{"id": "secretive", "name": "Secretive", "target": {
        "transport": "stdio", "command": "sh", "args": ["-c", script],
        "env": [["API_KEY", ""]], "secret_env": ["API_KEY"], "cwd": null}}]});
    std::fs::write(dir.join("catalog.json"), catalog.to_string()).unwrap();
    let credentials = json!({"version": 1, "entries": [], "values": [
        {"key": "server:secretive\nenv\nAPI_KEY", "value": TENANT_KEY}]});
    std::fs::write(dir.join("credentials.json"), credentials.to_string()).unwrap();
    let saved = json!({"calls": [{"id": "1", "server_id": "secretive", "name": "add them",
        "kind": "tool", "target": "add", "arguments": {"a": 2, "b": 3}, "created_wall_us": 1}]});
    std::fs::write(dir.join("saved.json"), saved.to_string()).unwrap();

    let run = |data: &std::path::Path| {
        Command::new(bin("periscope"))
            .args(["saved", "run", "add them", "--format", "json"])
            .env("XDG_DATA_HOME", data)
            .env("PERISCOPE_CREDENTIALS_FILE_ONLY", "1")
            .output()
            .expect("periscope runs")
    };
    let out = run(&data);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(&out));
    assert!(stdout(&out).contains("\"sum\""), "{}", stdout(&out));
    assert_no_secret("stderr", &stderr(&out));

    // Without the stored value the run stops before starting the server, and says why.
    std::fs::write(
        dir.join("credentials.json"),
        json!({"version": 1, "entries": []}).to_string(),
    )
    .unwrap();
    let out = run(&data);
    assert_eq!(out.status.code(), Some(2), "stderr: {}", stderr(&out));
    assert!(
        stderr(&out).contains("API_KEY is marked secret but no value is stored"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(&data);
}
