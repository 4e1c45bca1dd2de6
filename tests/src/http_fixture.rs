//! What the hand-written HTTP fixtures share (`misbehaving-http`, `tls-http`): one request read
//! off a connection, plain or TLS.

use std::io::BufRead;

/// A request's line and body (headers other than `Content-Length` are not kept).
pub struct Request {
    pub method: String,
    pub path: String,
    pub body: Vec<u8>,
}

/// Reads one request; `None` when the client closed without sending one.
pub fn read_request(reader: &mut impl BufRead) -> std::io::Result<Option<Request>> {
    let mut line = String::new();
    if reader.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    let mut words = line.split_whitespace();
    let method = words.next().unwrap_or("").to_string();
    let path = words.next().unwrap_or("").to_string();
    let mut length = 0;
    loop {
        let mut header = String::new();
        reader.read_line(&mut header)?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((k, v)) = header.split_once(':')
            && k.eq_ignore_ascii_case("content-length")
        {
            length = v.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    Ok(Some(Request { method, path, body }))
}
