//! A stdio proxy that breaks one rule of `periscope check` on purpose, in front of a real
//! server: `faulty-server <rule id> -- <server command>...`. Everything passes through as
//! the server wrote it except what the rule's fault changes, so the check of that rule fails
//! here and passes on the server behind (the demo server: `tests/tests/check.rs`). Each
//! fault is named for the rule it breaks (`periscope check --list-rules`).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

type Out = Arc<Mutex<std::io::Stdout>>;

fn write(out: &Out, message: &Value) {
    write_line(out, message.to_string().as_bytes());
}

fn write_line(out: &Out, line: &[u8]) {
    let mut out = out.lock().unwrap();
    let _ = out.write_all(line);
    let _ = out.write_all(b"\n");
    let _ = out.flush();
}

/// What the proxy does with a line from the client.
enum Inbound {
    Forward(Value),
    /// Answer it here (never reaches the server).
    Answer(Value),
    Swallow,
}

/// The client's requests by id (as JSON text): their method and params, to read responses by.
type Asked = Arc<Mutex<HashMap<String, (String, Value)>>>;

fn is_modern(params: &Value) -> bool {
    params
        .pointer("/_meta/io.modelcontextprotocol~1protocolVersion")
        .is_some()
}

fn result(id: &Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

fn error(id: &Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let fault = args.get(1).cloned().unwrap_or_default();
    let Some(split) = args.iter().position(|a| a == "--") else {
        eprintln!("usage: faulty-server <rule id> -- <server command>...");
        std::process::exit(2);
    };
    let server = &args[split + 1..];
    let out: Out = Arc::new(Mutex::new(std::io::stdout()));
    if fault == "stdio.stdout-only-json" {
        write_line(&out, b"faulty-server 1.0 ready (a banner on stdout)");
    }
    if fault == "stdio.exits-on-sigterm" {
        // SAFETY: setting a signal's disposition to ignore, before any other thread exists.
        unsafe { libc::signal(libc::SIGTERM, libc::SIG_IGN) };
    }
    if fault == "stdio.no-orphans" {
        // Left behind in the process group: nothing ever stops it.
        let _ = Command::new("sleep")
            .arg("30")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .spawn();
    }
    let mut child = Command::new(&server[0])
        .args(&server[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the server starts");
    let mut child_in = child.stdin.take().expect("piped");
    let child_out = child.stdout.take().expect("piped");
    let asked: Asked = Arc::default();

    let reader = {
        let out = out.clone();
        let asked = asked.clone();
        let fault = fault.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(child_out).split(b'\n') {
                let Ok(line) = line else { break };
                let Ok(mut message) = serde_json::from_slice::<Value>(&line) else {
                    write_line(&out, &line);
                    continue;
                };
                let request = message
                    .get("id")
                    .and_then(|id| asked.lock().unwrap().get(&id.to_string()).cloned());
                let extra = outbound(&fault, request.as_ref(), &mut message);
                write(&out, &message);
                for message in extra {
                    write(&out, &message);
                }
            }
        })
    };

    let mut batch_seen = false;
    for line in std::io::stdin().lock().split(b'\n') {
        let Ok(line) = line else { break };
        let message = match serde_json::from_slice::<Value>(&line) {
            Ok(m) => m,
            Err(_) => {
                if fault == "jsonrpc.parse-error" {
                    write(&out, &error(&Value::Null, -32603, "internal error"));
                    continue;
                }
                let _ = child_in.write_all(&line);
                let _ = child_in.write_all(b"\n");
                continue;
            }
        };
        if let (Some(id), Some(method)) = (
            message.get("id"),
            message.get("method").and_then(Value::as_str),
        ) {
            let params = message.get("params").cloned().unwrap_or(Value::Null);
            asked
                .lock()
                .unwrap()
                .insert(id.to_string(), (method.to_string(), params));
        }
        // jsonrpc.batch: a batch stops the server (it reads nothing more).
        if fault == "jsonrpc.batch" && message.is_array() {
            batch_seen = true;
        }
        if batch_seen {
            continue;
        }
        match inbound(&fault, message) {
            Inbound::Forward(message) => {
                let _ = child_in.write_all(message.to_string().as_bytes());
                let _ = child_in.write_all(b"\n");
                let _ = child_in.flush();
            }
            Inbound::Answer(answer) => write(&out, &answer),
            Inbound::Swallow => {}
        }
    }
    if fault == "stdio.exits-on-stdin-close" {
        // Its stdin is gone, and it keeps running.
        std::thread::sleep(Duration::from_secs(30));
    }
    drop(child_in);
    let _ = child.wait();
    let _ = reader.join();
}

/// The fault's change to a line from the client.
fn inbound(fault: &str, message: Value) -> Inbound {
    let id = message.get("id").cloned().unwrap_or(Value::Null);
    let method = message.get("method").and_then(Value::as_str).unwrap_or("");
    let params = message.get("params").cloned().unwrap_or(Value::Null);
    let offered = params
        .get("protocolVersion")
        .and_then(Value::as_str)
        .unwrap_or("");
    match (fault, method) {
        ("lifecycle.declared-answers", "prompts/list") => {
            Inbound::Answer(error(&id, -32601, "prompts/list"))
        }
        ("jsonrpc.unknown-method", "periscope/no-such-method") => {
            Inbound::Answer(result(&id, json!({})))
        }
        ("jsonrpc.invalid-request", _) if message.get("method").is_some_and(|m| !m.is_string()) => {
            Inbound::Swallow
        }
        ("jsonrpc.invalid-params", "tools/call") if !params["name"].is_string() => {
            Inbound::Answer(result(&id, json!({"content": []})))
        }
        ("jsonrpc.notification-unanswered", m)
            if message.get("id").is_none() && m.starts_with("notifications/periscope") =>
        {
            Inbound::Answer(error(&Value::Null, -32601, "unknown notification"))
        }
        ("lists.bogus-cursor" | "lists.cursors-end", "tools/list")
            if params.get("cursor").is_some() =>
        {
            let mut message = message;
            message["params"].as_object_mut().unwrap().remove("cursor");
            Inbound::Forward(message)
        }
        ("tools.unknown-tool", "tools/call")
            if params["name"] == "periscope-check-no-such-tool" =>
        {
            Inbound::Answer(result(
                &id,
                json!({"content": [{"type": "text", "text": "no such tool"}], "isError": true}),
            ))
        }
        ("resources.unknown-uri", "resources/read")
            if params["uri"]
                .as_str()
                .is_some_and(|u| u.starts_with("periscope-check")) =>
        {
            Inbound::Answer(result(&id, json!({"contents": []})))
        }
        ("resources.unknown-uri-code", "resources/read")
            if params["uri"]
                .as_str()
                .is_some_and(|u| u.starts_with("periscope-check")) =>
        {
            Inbound::Answer(error(&id, -32603, "no such resource"))
        }
        ("resources.subscribe", "resources/subscribe") => Inbound::Answer(error(&id, -32603, "no")),
        ("utilities.ping", "ping") => Inbound::Answer(error(&id, -32603, "no")),
        // The server never hears of the cancellation, so it answers the call.
        ("utilities.cancellation", "notifications/cancelled") => Inbound::Swallow,
        ("utilities.logging-set-level", "logging/setLevel") => {
            Inbound::Answer(error(&id, -32603, "no"))
        }
        ("lifecycle.initialize-older", "initialize") if offered == "2025-03-26" => {
            Inbound::Answer(initialize_answer(&id, "1999-01-01"))
        }
        ("lifecycle.initialize-unknown", "initialize") if offered == "1999-01-01" => {
            Inbound::Answer(initialize_answer(&id, "1999-01-01"))
        }
        ("lifecycle.initialize-latest", "initialize") if offered == "2025-11-25" => {
            Inbound::Answer(initialize_answer(&id, "2024-01-01"))
        }
        _ => Inbound::Forward(message),
    }
}

fn initialize_answer(id: &Value, version: &str) -> Value {
    result(
        id,
        json!({
            "protocolVersion": version,
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "faulty-server", "version": "1.0.0"},
        }),
    )
}

/// The fault's change to a line from the server (`request`: the client's request it answers,
/// method and params). Returns messages to send after it.
fn outbound(fault: &str, request: Option<&(String, Value)>, message: &mut Value) -> Vec<Value> {
    let Some((method, params)) = request else {
        return Vec::new();
    };
    let modern = is_modern(params);
    match fault {
        "jsonrpc.string-id" if message["id"] == "7001" => message["id"] = json!(7001),
        "jsonrpc.number-id" if message["id"] == 7002 => message["id"] = json!("7002"),
        _ => {}
    }
    let Some(result) = message.get_mut("result") else {
        if let Some(error) = message.get_mut("error") {
            match fault {
                "jsonrpc.error-shape" => error["code"] = json!("-32601"),
                "tools.bad-arguments" if method == "tools/call" => {
                    *message = json!({"jsonrpc": "2.0", "id": message["id"], "result": {"content": [{"type": "text", "text": "ran anyway"}]}});
                }
                "prompts.missing-argument" | "prompts.unknown-prompt"
                    if method == "prompts/get" =>
                {
                    *message =
                        json!({"jsonrpc": "2.0", "id": message["id"], "result": {"messages": []}});
                }
                _ => {}
            }
        }
        return Vec::new();
    };
    let mut after = Vec::new();
    match (fault, method.as_str()) {
        ("lifecycle.server-info", "initialize" | "server/discover") => {
            if let Some(info) = result.get_mut("serverInfo").and_then(Value::as_object_mut) {
                info.remove("version");
            }
            if let Some(info) = result
                .pointer_mut("/_meta/io.modelcontextprotocol~1serverInfo")
                .and_then(Value::as_object_mut)
            {
                info.remove("version");
            }
        }
        ("lifecycle.capabilities-shape", "initialize" | "server/discover") => {
            result["capabilities"]["logging"] = json!(true);
        }
        ("lifecycle.instructions", "initialize" | "server/discover") => {
            result["instructions"] = json!(42)
        }
        ("lifecycle.discover-shape", "server/discover") => {
            result.as_object_mut().unwrap().remove("ttlMs");
        }
        ("lifecycle.undeclared-refused", "initialize" | "server/discover") => {
            result["capabilities"]
                .as_object_mut()
                .unwrap()
                .remove("prompts");
        }
        ("eras.same-surface", "prompts/list") if modern => {
            result["prompts"].as_array_mut().unwrap().remove(0);
        }
        ("eras.modern-tool-works", "tools/call") if modern => {
            *result = json!({"content": [{"type": "text", "text": "this needs elicitation"}], "isError": true});
        }
        ("jsonrpc.schema-valid", "tools/list") => {
            result["tools"][0]["annotations"] = json!("read-only")
        }
        ("lists.tools", "tools/list") => {
            result["tools"][0]
                .as_object_mut()
                .unwrap()
                .remove("inputSchema");
        }
        ("lists.resources", "resources/list") => {
            result["resources"][0]
                .as_object_mut()
                .unwrap()
                .remove("uri");
        }
        ("lists.templates", "resources/templates/list") => {
            result["resourceTemplates"][0]
                .as_object_mut()
                .unwrap()
                .remove("uriTemplate");
        }
        ("lists.prompts", "prompts/list") => {
            result["prompts"][0].as_object_mut().unwrap().remove("name");
        }
        ("lists.cursors-end", "tools/list") => result["nextCursor"] = json!("again"),
        ("lists.unique-tool-names", "tools/list") => {
            let first = result["tools"][0].clone();
            result["tools"].as_array_mut().unwrap().push(first);
        }
        ("lists.unique-prompt-names", "prompts/list") => {
            let first = result["prompts"][0].clone();
            result["prompts"].as_array_mut().unwrap().push(first);
        }
        ("lists.unique-resource-uris", "resources/list") if params.get("cursor").is_none() => {
            let first = result["resources"][0].clone();
            result["resources"].as_array_mut().unwrap().push(first);
        }
        ("lists.tool-name-format", "tools/list") => result["tools"][0]["name"] = json!("bad name!"),
        ("lists.list-changed-declared", "initialize" | "server/discover") => {
            result["capabilities"]["tools"] = json!({});
        }
        ("lists.list-changed-declared", "tools/list") => {
            after.push(json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}));
        }
        ("tools.input-schema-object", "tools/list") => {
            result["tools"][0]["inputSchema"]["type"] = json!("string")
        }
        ("tools.input-schema-valid", "tools/list") => {
            result["tools"][0]["inputSchema"]["properties"] = json!({"x": {"type": 12}});
        }
        ("tools.output-schema-valid", "tools/list") => {
            for tool in result["tools"].as_array_mut().unwrap() {
                if tool.get("outputSchema").is_some() {
                    tool["outputSchema"]["type"] = json!("array");
                }
            }
        }
        ("tools.call-result", "tools/call") => result["content"] = json!("not an array"),
        ("tools.structured-content", "tools/call") if result.get("structuredContent").is_some() => {
            result["structuredContent"] = json!("a string, not what the schema says");
        }
        ("tools.bad-arguments", "tools/call") => {
            result.as_object_mut().unwrap().remove("isError");
        }
        ("utilities.progress", "tools/call") => {
            if let Some(token) = params.pointer("/_meta/progressToken") {
                for progress in [2, 1] {
                    after.insert(0, json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": token, "progress": progress}}));
                }
            }
        }
        ("resources.read", "resources/read") => result["contents"] = json!([]),
        ("resources.mime-consistent", "resources/read") => {
            for content in result["contents"].as_array_mut().unwrap() {
                content["mimeType"] = json!("application/x-not-what-was-listed");
            }
        }
        ("resources.base64", "resources/read") => {
            for content in result["contents"].as_array_mut().unwrap() {
                if let Some(object) = content.as_object_mut() {
                    object.remove("text");
                    object.insert("blob".into(), json!("not base64 at all!"));
                }
            }
        }
        ("resources.template-syntax", "resources/templates/list") => {
            result["resourceTemplates"][0]["uriTemplate"] = json!("demo://{broken");
        }
        ("prompts.get", "prompts/get") => result["messages"] = json!("no messages"),
        ("utilities.completion", "completion/complete") => {
            result["completion"]["values"] =
                json!((0..101).map(|i| format!("v{i}")).collect::<Vec<_>>());
        }
        ("utilities.cache-hints", _) if result.get("ttlMs").is_some() => {
            result["ttlMs"] = json!("soon")
        }
        _ => {}
    }
    // Progress goes before the response it belongs to.
    if fault == "utilities.progress" && !after.is_empty() {
        let response = message.clone();
        *message = after.remove(0);
        after.push(response);
    }
    after
}
