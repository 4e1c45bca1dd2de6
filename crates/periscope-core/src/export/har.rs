//! The HTTP exchanges of a session as HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/):
//! one entry per exchange, the request body the frame it carried (exact bytes), the response
//! body the frames it brought back. Headers are as recorded: secret ones already redacted.

use serde_json::{Value, json};

use super::{Recording, rfc3339};
use crate::record::HttpExchange;
use crate::wire::{Direction, Frame};

/// The HAR document of `recording`'s HTTP exchanges (none for a stdio session: an empty log).
pub fn har(recording: &Recording) -> Value {
    let entries: Vec<Value> = recording
        .exchanges
        .iter()
        .map(|exchange| entry(recording, exchange))
        .collect();
    json!({
        "log": {
            "version": "1.2",
            "creator": {"name": "Periscope", "version": env!("CARGO_PKG_VERSION")},
            "entries": entries,
        }
    })
}

fn headers(pairs: &[(String, String)]) -> Value {
    pairs
        .iter()
        .map(|(name, value)| json!({"name": name, "value": value}))
        .collect()
}

fn header<'a>(pairs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    pairs
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

fn frame_text(frame: &Frame) -> String {
    frame.text_lossy()
}

fn entry(recording: &Recording, exchange: &HttpExchange) -> Value {
    let sent = exchange
        .sent_frame
        .and_then(|seq| recording.frames.iter().find(|f| f.seq == seq));
    let query: Vec<Value> = url::Url::parse(&exchange.url)
        .map(|u| {
            u.query_pairs()
                .map(|(name, value)| json!({"name": name, "value": value}))
                .collect()
        })
        .unwrap_or_default();
    let mut request = json!({
        "method": exchange.method,
        "url": exchange.url,
        "httpVersion": "HTTP/1.1",
        "cookies": [],
        "headers": headers(&exchange.request_headers),
        "queryString": query,
        "headersSize": -1,
        "bodySize": sent.map_or(0, |f| f.size() as i64),
    });
    if let Some(frame) = sent {
        request["postData"] = json!({
            "mimeType": header(&exchange.request_headers, "content-type").unwrap_or("application/json"),
            "text": frame_text(frame),
        });
    }

    let brought: Vec<&Frame> = recording
        .frames
        .iter()
        .filter(|f| f.direction == Direction::In && f.exchange == Some(exchange.seq))
        .collect();
    let mime = header(&exchange.response_headers, "content-type").unwrap_or("");
    let body: String = brought
        .iter()
        .map(|f| frame_text(f))
        .collect::<Vec<_>>()
        .join("\n");
    let mut content = json!({
        "size": body.len(),
        "mimeType": mime,
        "text": body,
    });
    if mime.starts_with("text/event-stream") {
        content["comment"] = json!(
            "the JSON-RPC messages this event stream carried, one a line (SSE framing not kept)"
        );
    }
    let status = exchange.status.unwrap_or(0);
    let mut response = json!({
        "status": status,
        "statusText": reqwest::StatusCode::from_u16(status).ok().and_then(|s| s.canonical_reason()).unwrap_or(""),
        "httpVersion": "HTTP/1.1",
        "cookies": [],
        "headers": headers(&exchange.response_headers),
        "content": content,
        "redirectURL": header(&exchange.response_headers, "location").unwrap_or(""),
        "headersSize": -1,
        "bodySize": -1,
    });
    if let Some(error) = &exchange.error {
        // HAR has no field for a request that got no response; custom fields start with "_".
        response["_error"] = json!(error);
    }
    let wait_ms = exchange.duration_us as f64 / 1000.0;
    json!({
        "startedDateTime": rfc3339(exchange.wall_us),
        "time": wait_ms,
        "request": request,
        "response": response,
        "cache": {},
        "timings": {"send": 0, "wait": wait_ms, "receive": 0},
        "_periscope": {
            "exchange": exchange.seq,
            "sentFrame": exchange.sent_frame,
            "frames": brought.iter().map(|f| f.seq).collect::<Vec<_>>(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::tests::frame;

    #[test]
    fn an_exchange_becomes_a_har_entry_with_its_bodies_and_redacted_headers() {
        let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
        let answer = r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}"#;
        let recording = Recording {
            frames: vec![
                frame(1, Direction::Out, call, Some(3)),
                frame(4, Direction::In, answer, Some(3)),
            ],
            exchanges: vec![
                HttpExchange {
                    seq: 3,
                    wall_us: 1_764_000_000_000_000,
                    mono_us: 10,
                    method: "POST".into(),
                    url: "http://127.0.0.1:8080/mcp?x=1".into(),
                    status: Some(200),
                    error: None,
                    request_headers: vec![
                        ("content-type".into(), "application/json".into()),
                        ("authorization".into(), "[redacted]".into()),
                    ],
                    response_headers: vec![("content-type".into(), "application/json".into())],
                    duration_us: 1500,
                    sent_frame: Some(1),
                },
                HttpExchange {
                    seq: 5,
                    wall_us: 1_764_000_000_100_000,
                    mono_us: 20,
                    method: "POST".into(),
                    url: "http://127.0.0.1:8080/mcp".into(),
                    status: None,
                    error: Some("connection refused".into()),
                    request_headers: vec![],
                    response_headers: vec![],
                    duration_us: 0,
                    sent_frame: None,
                },
            ],
            ..Recording::default()
        };
        let doc = har(&recording);
        assert_eq!(doc["log"]["version"], "1.2");
        let first = &doc["log"]["entries"][0];
        assert_eq!(first["startedDateTime"], "2025-11-24T16:00:00Z");
        assert_eq!(first["request"]["postData"]["text"], call);
        assert_eq!(first["request"]["queryString"][0]["name"], "x");
        assert_eq!(first["request"]["headers"][1]["value"], "[redacted]");
        assert_eq!(first["response"]["status"], 200);
        assert_eq!(first["response"]["statusText"], "OK");
        assert_eq!(first["response"]["content"]["text"], answer);
        assert_eq!(first["time"], 1.5);
        let refused = &doc["log"]["entries"][1];
        assert_eq!(refused["response"]["status"], 0);
        assert_eq!(refused["response"]["_error"], "connection refused");
        assert!(refused["request"].get("postData").is_none());
    }
}
