//! A stdio MCP server that costs nearly nothing: each request line is answered at once with a
//! canned result, its id copied as bytes (no JSON parse). The load benchmarks' "server that
//! costs nothing": what is left of a round trip is the client's and the pipe's.
//!
//! `initialize` gets a 2025-11-25 handshake result declaring tools; `tools/list` one tool,
//! `work`; any other request the result of a tool call (`{"content":[{"type":"text","text":
//! "ok"}]}`). Notifications get nothing. Usage: `canned-server`.

use std::io::{BufRead, BufWriter, Write};

const INITIALIZE: &[u8] = br#"{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"canned-server","version":"1.0.0"}}"#;
const TOOLS: &[u8] = br#"{"tools":[{"name":"work","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}]}"#;
const CALLED: &[u8] = br#"{"content":[{"type":"text","text":"ok"}]}"#;

/// The id's bytes as sent: what follows `"id":` up to the next `,` or `}` (a string id holds
/// neither in what clients send).
fn id(line: &[u8]) -> Option<&[u8]> {
    let at = line.windows(5).position(|w| w == b"\"id\":")? + 5;
    let rest = &line[at..];
    let end = rest.iter().position(|b| *b == b',' || *b == b'}')?;
    Some(rest[..end].trim_ascii())
}

fn main() {
    let stdin = std::io::stdin().lock();
    let mut out = BufWriter::new(std::io::stdout().lock());
    let has = |line: &[u8], what: &[u8]| line.windows(what.len()).any(|w| w == what);
    for line in stdin.split(b'\n') {
        let Ok(line) = line else { break };
        let Some(id) = id(&line) else { continue };
        // A response from the client carries an id but no method: nothing to answer.
        if !has(&line, b"\"method\"") {
            continue;
        }
        let result = if has(&line, b"\"method\":\"initialize\"") {
            INITIALIZE
        } else if has(&line, b"\"method\":\"tools/list\"") {
            TOOLS
        } else {
            CALLED
        };
        let _ = out.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":");
        let _ = out.write_all(id);
        let _ = out.write_all(b",\"result\":");
        let _ = out.write_all(result);
        let _ = out.write_all(b"}\n");
        if out.flush().is_err() {
            break;
        }
    }
}
