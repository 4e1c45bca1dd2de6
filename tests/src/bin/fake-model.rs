//! A FAKE model provider, a test fixture only: it speaks just enough of the OpenAI
//! chat-completions and Anthropic Messages formats to answer Periscope's model clients with
//! scripted replies, so the tests that put a model in the loop need no network and no real
//! model (tests/tests/engine_models.rs, cli_models.rs; docs/testing.md). Nothing it says comes
//! from a model. Hand-written on plain TCP threads like the other fixtures, one connection per
//! request (`Connection: close`).
//!
//! Usage: `fake-model <script.json>[,<script.json>…] <log>`; prints its base URL (`http://127.0.0.1:PORT`) on
//! stdout. OpenAI-compatible clients use `<base>/v1`, Anthropic ones `<base>`.
//!
//! - `POST /v1/chat/completions` (OpenAI) and `POST /v1/messages` (Anthropic) consume the
//!   script's turns in order, whatever the path; streamed (`data:` chunks, tool calls as
//!   fragments of `chunk_chars` characters, usage last; Anthropic: `content_block_start` +
//!   `input_json_delta`s, usage in `message_delta`) when the request says `stream: true`, one
//!   JSON document otherwise.
//! - `GET /v1/models`: `{"data": [{"id": <model>}]}`. Anything else: 404.
//! - A turn whose `expect` is not met is answered 500 with a sentence naming the turn and what
//!   it saw, so a test fails with the reason rather than a timeout. A turn `{"error": {"status",
//!   "body"}}` answers that; `{"hang": true}` reads the request and never answers;
//!   `{"stall": true}` starts a stream, sends one piece and falls silent; `{"drip": true}`
//!   streams a piece every 100 ms, forever.
//! - Each request is logged to `<log>` as one JSON line `{"path", "auth", "body"}`: `auth` is
//!   `"ok"` when the request's key (`Authorization: Bearer`, `x-api-key`) equals the
//!   `FAKE_MODEL_KEY` environment variable, `"missing"` without one, else `"wrong"`. The key
//!   itself is never logged. With `FAKE_MODEL_KEY` set, a request without the right key gets 401.
//!
//! The script (tests/fixtures/models/*.json):
//! `{"model", "chunk_chars", "delay_ms", "turns": [{"expect": {"last_user_contains",
//! "last_tool_result_contains", "last_tool_result_is_error", "tools_include": [..],
//! "tools_exclude": [..]}, "reply": [{"text"} | {"tool_use": {"name", "input"}}],
//! "usage": {"input", "output"}}]}`.
//!
//! For evals, where many conversations run at once and in no set order, a script may give
//! `rules` instead of `turns`: each request is answered by the first rule whose `when` it
//! meets, whatever came before: `{"rules": [{"when": {"last_user_contains",
//! "after_tool_result": bool, "last_tool_result_contains", "tool_description_contains":
//! {"tool", "text"}}, "reply": [..], "usage", "wrong_every": N, "wrong_reply": [..]}]}`.
//! `wrong_every: N` answers every Nth request that meets the rule (counted per rule, so the
//! share is exact whatever the order) with `wrong_reply`: a model that picks the wrong tool
//! some of the time. In a reply's text, `{tool_result}` stands for the last tool result's
//! text. A request no rule meets is answered 500 naming what it saw.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Mutex;
use std::time::Duration;

use serde_json::{Value, json};

/// One writer at a time, so log lines never interleave.
static LOG_LOCK: Mutex<()> = Mutex::new(());
/// The largest request body read (a conversation with a few tool results fits many times).
const MAX_BODY: usize = 16 * 1024 * 1024;

struct Script {
    model: String,
    chunk_chars: usize,
    delay: Duration,
    turns: Vec<Value>,
    rules: Vec<Value>,
    /// The next turn of `turns`.
    next_turn: Mutex<usize>,
    /// How many requests each rule has met.
    hits: Mutex<Vec<usize>>,
}

impl Script {
    fn read(path: &str) -> Script {
        let script: Value =
            serde_json::from_str(&std::fs::read_to_string(path).expect("the script is readable"))
                .expect("the script is JSON");
        let rules = script["rules"].as_array().cloned().unwrap_or_default();
        Script {
            model: script["model"].as_str().unwrap_or("fake-1").to_string(),
            chunk_chars: script["chunk_chars"].as_u64().unwrap_or(4).max(1) as usize,
            delay: Duration::from_millis(script["delay_ms"].as_u64().unwrap_or(0)),
            turns: script["turns"].as_array().cloned().unwrap_or_default(),
            hits: Mutex::new(vec![0; rules.len()]),
            rules,
            next_turn: Mutex::new(0),
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(script_path), Some(log)) = (args.first(), args.get(1)) else {
        eprintln!("usage: fake-model <script.json> <log>");
        std::process::exit(2);
    };
    // Several scripts (comma-separated) serve several models at one URL, as a local runtime
    // does: a request's `model` picks the script of that name (the first when none matches).
    let scripts: &'static [Script] = Box::leak(
        script_path
            .split(',')
            .map(Script::read)
            .collect::<Vec<_>>()
            .into_boxed_slice(),
    );
    let log: &'static str = Box::leak(log.clone().into_boxed_str());
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    println!("http://{}", listener.local_addr().unwrap());
    std::io::stdout().flush().unwrap();
    for stream in listener.incoming().flatten() {
        std::thread::spawn(move || {
            let _ = serve(stream, scripts, log);
        });
    }
}

struct Request {
    method: String,
    path: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Request {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

fn read_request(stream: &TcpStream) -> std::io::Result<Request> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("").to_string();
    let path = parts.next().unwrap_or("").to_string();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h)? == 0 || h.trim().is_empty() {
            break;
        }
        if let Some((n, v)) = h.split_once(':') {
            headers.push((n.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    let length = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse::<usize>().ok())
        .unwrap_or(0)
        .min(MAX_BODY);
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    Ok(Request {
        method,
        path,
        headers,
        body,
    })
}

fn serve(mut stream: TcpStream, scripts: &[Script], log: &str) -> std::io::Result<()> {
    let request = read_request(&stream)?;
    let anthropic = request.path.starts_with("/v1/messages");
    let sent_key = if anthropic {
        request.header("x-api-key").map(str::to_string)
    } else {
        request
            .header("authorization")
            .map(|v| v.strip_prefix("Bearer ").unwrap_or(v).to_string())
    };
    let expected_key = std::env::var("FAKE_MODEL_KEY").ok();
    let auth = match (&sent_key, &expected_key) {
        (None, _) => "missing",
        (Some(sent), Some(expected)) if sent == expected => "ok",
        _ => "wrong",
    };
    let body: Value = serde_json::from_slice(&request.body)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&request.body).into_owned()));
    write_log(
        log,
        &json!({"path": request.path, "auth": auth, "body": body}),
    );
    let script = scripts
        .iter()
        .find(|s| body["model"].as_str() == Some(s.model.as_str()))
        .unwrap_or(&scripts[0]);
    match (request.method.as_str(), request.path.as_str()) {
        ("GET", "/v1/models") => {
            let data: Vec<Value> = scripts.iter().map(|s| json!({"id": s.model})).collect();
            return respond_json(&mut stream, 200, &json!({"object": "list", "data": data}));
        }
        ("POST", "/v1/chat/completions") | ("POST", "/v1/messages") => {}
        _ => {
            return respond_json(
                &mut stream,
                404,
                &json!({"error": {"message": "not found"}}),
            );
        }
    }
    if expected_key.is_some() && auth != "ok" {
        return respond_json(
            &mut stream,
            401,
            &json!({"error": {"message": format!("fake-model: the API key is {auth}")}}),
        );
    }
    if !script.rules.is_empty() {
        return answer_by_rule(&mut stream, script, &body, anthropic);
    }
    let n = {
        let mut next = script.next_turn.lock().unwrap();
        let n = *next;
        *next += 1;
        n
    };
    let Some(turn) = script.turns.get(n) else {
        return respond_json(
            &mut stream,
            500,
            &json!({"error": {"message": format!("fake-model: the script has {} turns and this is request {}", script.turns.len(), n + 1)}}),
        );
    };
    if turn["hang"] == true {
        // Never answer; wait for the client to give up and close.
        let mut sink = [0u8; 1024];
        while matches!(stream.read(&mut sink), Ok(k) if k > 0) {}
        return Ok(());
    }
    if turn["stall"] == true {
        // Start a stream, send one piece, then fall silent until the client gives up.
        let mut sse = Sse::start(&mut stream, Duration::ZERO)?;
        sse.send(
            None,
            &json!({"choices": [{"index": 0, "delta": {"content": "…"}}]}).to_string(),
        )?;
        let mut sink = [0u8; 1024];
        while matches!(stream.read(&mut sink), Ok(k) if k > 0) {}
        return Ok(());
    }
    if turn["drip"] == true {
        // A stream that never ends: a piece every 100 ms, for as long as the client reads.
        let mut sse = Sse::start(&mut stream, Duration::from_millis(100))?;
        loop {
            sse.send(
                None,
                &json!({"choices": [{"index": 0, "delta": {"content": "."}}]}).to_string(),
            )?;
        }
    }
    if let Some(error) = turn.get("error") {
        let status = error["status"].as_u64().unwrap_or(500) as u16;
        return respond_json(&mut stream, status, &error["body"]);
    }
    if let Some(unmet) = unmet_expectation(&turn["expect"], &body, anthropic) {
        return respond_json(
            &mut stream,
            500,
            &json!({"error": {"message": format!("fake-model: turn {} expected {unmet}", n + 1)}}),
        );
    }
    let reply = turn["reply"].as_array().cloned().unwrap_or_default();
    let usage = (
        turn["usage"]["input"].as_u64(),
        turn["usage"]["output"].as_u64(),
    );
    let streamed = body["stream"] == true;
    match (anthropic, streamed) {
        (false, true) => stream_openai(&mut stream, script, n, &reply, usage),
        (true, true) => stream_anthropic(&mut stream, script, n, &reply, usage),
        (false, false) => respond_json(&mut stream, 200, &openai_json(script, n, &reply, usage)),
        (true, false) => respond_json(&mut stream, 200, &anthropic_json(script, n, &reply, usage)),
    }
}

/// A rules script's answer: the first rule the request meets, its wrong reply every Nth time.
fn answer_by_rule(
    stream: &mut TcpStream,
    script: &Script,
    body: &Value,
    anthropic: bool,
) -> std::io::Result<()> {
    let Some((index, rule)) = script
        .rules
        .iter()
        .enumerate()
        .find(|(_, rule)| meets(&rule["when"], body, anthropic))
    else {
        let (user, result) = last_user_and_tool_result(body, anthropic);
        return respond_json(
            stream,
            500,
            &json!({"error": {"message": format!("fake-model: no rule meets this request (last user text {user:?}, last tool result {result:?})")}}),
        );
    };
    let hit = {
        let mut hits = script.hits.lock().unwrap();
        hits[index] += 1;
        hits[index]
    };
    let wrong = rule["wrong_every"]
        .as_u64()
        .is_some_and(|n| n > 0 && (hit as u64).is_multiple_of(n));
    let reply = if wrong {
        &rule["wrong_reply"]
    } else {
        &rule["reply"]
    };
    let tool_result = last_user_and_tool_result(body, anthropic)
        .1
        .map(|(text, _)| text)
        .unwrap_or_default();
    let reply: Vec<Value> = reply
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .map(|mut item| {
            if let Some(text) = item["text"].as_str() {
                item["text"] = json!(text.replace("{tool_result}", &tool_result));
            }
            item
        })
        .collect();
    let usage = (
        rule["usage"]["input"].as_u64(),
        rule["usage"]["output"].as_u64(),
    );
    let n = index;
    match (anthropic, body["stream"] == true) {
        (false, true) => stream_openai(stream, script, n, &reply, usage),
        (true, true) => stream_anthropic(stream, script, n, &reply, usage),
        (false, false) => respond_json(stream, 200, &openai_json(script, n, &reply, usage)),
        (true, false) => respond_json(stream, 200, &anthropic_json(script, n, &reply, usage)),
    }
}

/// Whether a request meets a rule's `when`.
fn meets(when: &Value, body: &Value, anthropic: bool) -> bool {
    let (user, result) = last_user_and_tool_result(body, anthropic);
    if let Some(want) = when["last_user_contains"].as_str()
        && !user.to_lowercase().contains(&want.to_lowercase())
    {
        return false;
    }
    if let Some(want) = when["after_tool_result"].as_bool()
        && last_is_tool_result(body, anthropic) != want
    {
        return false;
    }
    if let Some(want) = when["last_tool_result_contains"].as_str()
        && !result.as_ref().is_some_and(|(t, _)| t.contains(want))
    {
        return false;
    }
    if let Some(want) = when.get("tool_description_contains") {
        let (tool, text) = (want["tool"].as_str(), want["text"].as_str().unwrap_or(""));
        let described = body["tools"].as_array().into_iter().flatten().any(|t| {
            let (name, description) = if anthropic {
                (t["name"].as_str(), t["description"].as_str())
            } else {
                (
                    t["function"]["name"].as_str(),
                    t["function"]["description"].as_str(),
                )
            };
            name == tool && description.unwrap_or("").contains(text)
        });
        if !described {
            return false;
        }
    }
    true
}

/// Whether the request's last message carries a tool result (the model is asked to go on
/// after a call).
fn last_is_tool_result(body: &Value, anthropic: bool) -> bool {
    let Some(last) = body["messages"].as_array().and_then(|m| m.last()) else {
        return false;
    };
    if anthropic {
        last["content"]
            .as_array()
            .is_some_and(|blocks| blocks.iter().any(|b| b["type"] == "tool_result"))
    } else {
        last["role"] == "tool"
    }
}

fn write_log(log: &str, line: &Value) {
    let _guard = LOG_LOCK.lock().unwrap();
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
    {
        let _ = writeln!(f, "{line}");
    }
}

/// The text of a message's content (a string, or an array of parts / blocks).
fn text_of(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| match p.get("type").and_then(Value::as_str) {
                Some("text") => p["text"].as_str().map(str::to_string),
                Some("tool_result") => Some(text_of(&p["content"])),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join(""),
        _ => String::new(),
    }
}

/// The last user text (messages holding only tool results skipped), and the last tool result
/// with its error flag.
fn last_user_and_tool_result(body: &Value, anthropic: bool) -> (String, Option<(String, bool)>) {
    let messages = body["messages"].as_array().cloned().unwrap_or_default();
    let mut user = String::new();
    let mut result = None;
    for m in &messages {
        let role = m["role"].as_str().unwrap_or("");
        if anthropic {
            if role != "user" {
                continue;
            }
            let blocks = match &m["content"] {
                Value::String(s) => vec![json!({"type": "text", "text": s})],
                Value::Array(b) => b.clone(),
                _ => Vec::new(),
            };
            let text: String = blocks
                .iter()
                .filter(|b| b["type"] == "text")
                .filter_map(|b| b["text"].as_str())
                .collect();
            if !text.is_empty() {
                user = text;
            }
            for b in blocks.iter().filter(|b| b["type"] == "tool_result") {
                result = Some((text_of(&b["content"]), b["is_error"] == true));
            }
        } else if role == "user" {
            user = text_of(&m["content"]);
        } else if role == "tool" {
            let text = text_of(&m["content"]);
            let error = text.starts_with("Error:");
            result = Some((text, error));
        }
    }
    (user, result)
}

fn tool_names(body: &Value, anthropic: bool) -> Vec<String> {
    body["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| {
            if anthropic {
                t["name"].as_str()
            } else {
                t["function"]["name"].as_str()
            }
        })
        .map(str::to_string)
        .collect()
}

/// What of `expect` the request does not meet, in words.
fn unmet_expectation(expect: &Value, body: &Value, anthropic: bool) -> Option<String> {
    let (user, result) = last_user_and_tool_result(body, anthropic);
    if let Some(want) = expect["last_user_contains"].as_str()
        && !user.contains(want)
    {
        return Some(format!(
            "the last user text to contain {want:?}, saw {user:?}"
        ));
    }
    if let Some(want) = expect["last_tool_result_contains"].as_str()
        && !result.as_ref().is_some_and(|(t, _)| t.contains(want))
    {
        return Some(format!(
            "the last tool result to contain {want:?}, saw {result:?}"
        ));
    }
    if let Some(want) = expect["last_tool_result_is_error"].as_bool()
        && result.as_ref().map(|(_, e)| *e) != Some(want)
    {
        return Some(format!(
            "the last tool result's error flag to be {want}, saw {result:?}"
        ));
    }
    let names = tool_names(body, anthropic);
    for want in expect["tools_include"].as_array().into_iter().flatten() {
        if !names.iter().any(|n| Some(n.as_str()) == want.as_str()) {
            return Some(format!("tool {want} to be offered, saw {names:?}"));
        }
    }
    for unwanted in expect["tools_exclude"].as_array().into_iter().flatten() {
        if names.iter().any(|n| Some(n.as_str()) == unwanted.as_str()) {
            return Some(format!("tool {unwanted} not to be offered, saw {names:?}"));
        }
    }
    None
}

fn respond_json(stream: &mut TcpStream, status: u16, body: &Value) -> std::io::Result<()> {
    let body = body.to_string();
    write!(
        stream,
        "HTTP/1.1 {status} {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        if status == 200 { "OK" } else { "Scripted" },
        body.len()
    )?;
    stream.flush()
}

/// Splits text into pieces of at most `n` characters.
fn pieces(text: &str, n: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    chars.chunks(n).map(|c| c.iter().collect()).collect()
}

fn has_tool_use(reply: &[Value]) -> bool {
    reply.iter().any(|r| r.get("tool_use").is_some())
}

struct Sse<'a> {
    stream: &'a mut TcpStream,
    delay: Duration,
}

impl Sse<'_> {
    fn start(stream: &mut TcpStream, delay: Duration) -> std::io::Result<Sse<'_>> {
        write!(
            stream,
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n"
        )?;
        stream.flush()?;
        Ok(Sse { stream, delay })
    }

    fn send(&mut self, event: Option<&str>, data: &str) -> std::io::Result<()> {
        if !self.delay.is_zero() {
            std::thread::sleep(self.delay);
        }
        if let Some(event) = event {
            writeln!(self.stream, "event: {event}")?;
        }
        write!(self.stream, "data: {data}\n\n")?;
        self.stream.flush()
    }
}

fn stream_openai(
    stream: &mut TcpStream,
    script: &Script,
    n: usize,
    reply: &[Value],
    usage: (Option<u64>, Option<u64>),
) -> std::io::Result<()> {
    let id = format!("chatcmpl-fake-{n}");
    let chunk = |delta: Value, finish: Value| {
        json!({"id": id, "object": "chat.completion.chunk", "model": script.model,
               "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
        .to_string()
    };
    let mut sse = Sse::start(stream, script.delay)?;
    sse.send(
        None,
        &chunk(json!({"role": "assistant", "content": ""}), Value::Null),
    )?;
    let mut tool_index = 0;
    for item in reply {
        if let Some(text) = item["text"].as_str() {
            for piece in pieces(text, script.chunk_chars) {
                sse.send(None, &chunk(json!({"content": piece}), Value::Null))?;
            }
        } else if let Some(call) = item.get("tool_use") {
            let call_id = format!("call_{n}_{tool_index}");
            sse.send(
                None,
                &chunk(
                    json!({"tool_calls": [{"index": tool_index, "id": call_id, "type": "function",
                                           "function": {"name": call["name"], "arguments": ""}}]}),
                    Value::Null,
                ),
            )?;
            for piece in pieces(&call["input"].to_string(), script.chunk_chars) {
                sse.send(
                    None,
                    &chunk(
                        json!({"tool_calls": [{"index": tool_index, "function": {"arguments": piece}}]}),
                        Value::Null,
                    ),
                )?;
            }
            tool_index += 1;
        }
    }
    let finish = if has_tool_use(reply) {
        "tool_calls"
    } else {
        "stop"
    };
    sse.send(None, &chunk(json!({}), json!(finish)))?;
    if usage.0.is_some() || usage.1.is_some() {
        let (i, o) = (usage.0.unwrap_or(0), usage.1.unwrap_or(0));
        sse.send(
            None,
            &json!({"id": id, "object": "chat.completion.chunk", "model": script.model, "choices": [],
                    "usage": {"prompt_tokens": i, "completion_tokens": o, "total_tokens": i + o}})
            .to_string(),
        )?;
    }
    sse.send(None, "[DONE]")
}

fn stream_anthropic(
    stream: &mut TcpStream,
    script: &Script,
    n: usize,
    reply: &[Value],
    usage: (Option<u64>, Option<u64>),
) -> std::io::Result<()> {
    let mut sse = Sse::start(stream, script.delay)?;
    sse.send(
        Some("message_start"),
        &json!({"type": "message_start", "message": {"id": format!("msg_fake_{n}"), "type": "message",
                "role": "assistant", "model": script.model, "content": [], "stop_reason": null,
                "stop_sequence": null, "usage": {"input_tokens": usage.0.unwrap_or(0), "output_tokens": 1}}})
        .to_string(),
    )?;
    sse.send(Some("ping"), r#"{"type": "ping"}"#)?;
    for (index, item) in reply.iter().enumerate() {
        if let Some(text) = item["text"].as_str() {
            sse.send(
                Some("content_block_start"),
                &json!({"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}}).to_string(),
            )?;
            for piece in pieces(text, script.chunk_chars) {
                sse.send(
                    Some("content_block_delta"),
                    &json!({"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": piece}}).to_string(),
                )?;
            }
        } else if let Some(call) = item.get("tool_use") {
            sse.send(
                Some("content_block_start"),
                &json!({"type": "content_block_start", "index": index, "content_block":
                        {"type": "tool_use", "id": format!("toolu_fake_{n}_{index}"), "name": call["name"], "input": {}}})
                .to_string(),
            )?;
            for piece in pieces(&call["input"].to_string(), script.chunk_chars) {
                sse.send(
                    Some("content_block_delta"),
                    &json!({"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": piece}}).to_string(),
                )?;
            }
        }
        sse.send(
            Some("content_block_stop"),
            &json!({"type": "content_block_stop", "index": index}).to_string(),
        )?;
    }
    let stop = if has_tool_use(reply) {
        "tool_use"
    } else {
        "end_turn"
    };
    sse.send(
        Some("message_delta"),
        &json!({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": null},
                "usage": {"output_tokens": usage.1.unwrap_or(0)}})
        .to_string(),
    )?;
    sse.send(Some("message_stop"), r#"{"type": "message_stop"}"#)
}

fn openai_json(
    script: &Script,
    n: usize,
    reply: &[Value],
    usage: (Option<u64>, Option<u64>),
) -> Value {
    let text: String = reply.iter().filter_map(|r| r["text"].as_str()).collect();
    let calls: Vec<Value> = reply
        .iter()
        .filter_map(|r| r.get("tool_use"))
        .enumerate()
        .map(|(i, c)| {
            json!({"id": format!("call_{n}_{i}"), "type": "function",
                              "function": {"name": c["name"], "arguments": c["input"].to_string()}})
        })
        .collect();
    let mut message = json!({"role": "assistant", "content": if text.is_empty() { Value::Null } else { json!(text) }});
    if !calls.is_empty() {
        message["tool_calls"] = json!(calls);
    }
    let (i, o) = (usage.0.unwrap_or(0), usage.1.unwrap_or(0));
    json!({"id": format!("chatcmpl-fake-{n}"), "object": "chat.completion", "model": script.model,
           "choices": [{"index": 0, "message": message,
                        "finish_reason": if calls.is_empty() { "stop" } else { "tool_calls" }}],
           "usage": {"prompt_tokens": i, "completion_tokens": o, "total_tokens": i + o}})
}

fn anthropic_json(
    script: &Script,
    n: usize,
    reply: &[Value],
    usage: (Option<u64>, Option<u64>),
) -> Value {
    let content: Vec<Value> = reply
        .iter()
        .enumerate()
        .filter_map(|(i, r)| {
            if let Some(text) = r["text"].as_str() {
                Some(json!({"type": "text", "text": text}))
            } else {
                r.get("tool_use").map(|c| {
                    json!({"type": "tool_use", "id": format!("toolu_fake_{n}_{i}"), "name": c["name"], "input": c["input"]})
                })
            }
        })
        .collect();
    json!({"id": format!("msg_fake_{n}"), "type": "message", "role": "assistant", "model": script.model,
           "content": content, "stop_reason": if has_tool_use(reply) { "tool_use" } else { "end_turn" },
           "stop_sequence": null,
           "usage": {"input_tokens": usage.0.unwrap_or(0), "output_tokens": usage.1.unwrap_or(0)}})
}
