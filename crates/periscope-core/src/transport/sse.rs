//! A Server-Sent Events parser with a bound on memory: the WHATWG event-stream format (lines
//! ending in CRLF, LF or CR; `:` comments; `event`, `data`, `id`, `retry`; one leading space
//! after the colon removed; an empty line dispatches), fed bytes as they arrive.
//!
//! It is ours rather than a crate's because it sits on the wire, where what a hostile server
//! can make us hold matters: no line and no event grows past `max_event_bytes`. The excess is
//! counted, not kept, so an over-long event is delivered cut short with its true size, and an
//! endless `data:` line costs `max_event_bytes` of memory however long it runs.

/// Bytes a line may hold beyond `max_event_bytes`, for its field name (`data: `, `retry: `).
const FIELD_NAME_ROOM: usize = 64;

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SseEvent {
    /// The `event` field, if one was given.
    pub event: Option<String>,
    /// The data lines joined by `\n`, at most `max_event_bytes` of them.
    pub data: Vec<u8>,
    /// The full size of the data when it was cut short (more than `max_event_bytes`).
    pub data_truncated_from: Option<u64>,
    /// The `id` field, if one was given in this event.
    pub id: Option<String>,
    /// The `retry` field, in milliseconds, if one was given.
    pub retry: Option<u64>,
}

/// Parses an event stream incrementally. Feed it with [`SseParser::push`]; it returns the
/// events each chunk completed.
#[derive(Debug)]
pub struct SseParser {
    max_event_bytes: usize,
    /// The current line's bytes (kept up to the bound).
    line: Vec<u8>,
    /// The current line's full length.
    line_len: u64,
    /// The previous chunk ended with CR: an LF starting the next one belongs to it.
    after_cr: bool,
    /// The stream's first bytes are still to be checked for a BOM.
    at_start: bool,
    event: SseEvent,
    /// The data's full length (including what was not kept).
    data_len: u64,
    /// Any field seen since the last dispatch: the event is started.
    started: bool,
}

impl SseParser {
    pub fn new(max_event_bytes: usize) -> SseParser {
        SseParser {
            max_event_bytes,
            line: Vec::new(),
            line_len: 0,
            after_cr: false,
            at_start: true,
            event: SseEvent::default(),
            data_len: 0,
            started: false,
        }
    }

    /// Whether an event has begun and not been dispatched (a line in progress, or fields).
    pub fn in_event(&self) -> bool {
        self.started || self.line_len > 0
    }

    /// Bytes held for the event in progress (line and data), never more than about twice the
    /// bound.
    pub fn held_bytes(&self) -> usize {
        self.line.len() + self.event.data.len()
    }

    /// Feeds bytes; returns the events they completed, in order.
    pub fn push(&mut self, mut chunk: &[u8]) -> Vec<SseEvent> {
        let mut out = Vec::new();
        if self.at_start && !chunk.is_empty() {
            // A UTF-8 BOM may open the stream (checked on the first chunk only).
            if let Some(rest) = chunk.strip_prefix(b"\xEF\xBB\xBF") {
                chunk = rest;
            }
            self.at_start = false;
        }
        if self.after_cr && chunk.first() == Some(&b'\n') {
            chunk = &chunk[1..];
        }
        self.after_cr = false;
        while !chunk.is_empty() {
            match chunk.iter().position(|&b| b == b'\n' || b == b'\r') {
                Some(i) => {
                    self.take(&chunk[..i]);
                    let ending = chunk[i];
                    chunk = &chunk[i + 1..];
                    if ending == b'\r' {
                        match chunk.first() {
                            Some(b'\n') => chunk = &chunk[1..],
                            Some(_) => {}
                            None => self.after_cr = true,
                        }
                    }
                    if let Some(event) = self.end_line() {
                        out.push(event);
                    }
                }
                None => {
                    self.take(chunk);
                    chunk = &[];
                }
            }
        }
        out
    }

    /// The stream ended: an event still in progress is returned (the spec discards it; an
    /// inspector shows it), with `data_truncated_from` set when it was cut.
    pub fn finish(&mut self) -> Option<SseEvent> {
        if self.line_len > 0 {
            self.field_line();
        }
        let started = self.started;
        let event = self.take_event();
        started.then_some(event).filter(|e| !e.data.is_empty())
    }

    fn take(&mut self, bytes: &[u8]) {
        // Room for the field's name as well as a full event's worth of value.
        let room = (self.max_event_bytes + FIELD_NAME_ROOM).saturating_sub(self.line.len());
        self.line.extend_from_slice(&bytes[..bytes.len().min(room)]);
        self.line_len += bytes.len() as u64;
    }

    fn end_line(&mut self) -> Option<SseEvent> {
        if self.line_len == 0 {
            // An empty line dispatches the event, if one was started.
            let started = self.started;
            let event = self.take_event();
            return started.then_some(event);
        }
        self.field_line();
        None
    }

    /// Interprets the current (non-empty) line as a field or a comment.
    fn field_line(&mut self) {
        let line = std::mem::take(&mut self.line);
        let line_len = std::mem::replace(&mut self.line_len, 0);
        if line.first() == Some(&b':') {
            return; // a comment
        }
        let (name, value, value_len) = match line.iter().position(|&b| b == b':') {
            Some(i) => {
                let mut value = &line[i + 1..];
                let mut skipped = (i + 1) as u64;
                if value.first() == Some(&b' ') {
                    value = &value[1..];
                    skipped += 1;
                }
                (&line[..i], value, line_len - skipped)
            }
            None => (&line[..], &[][..], 0),
        };
        match name {
            b"data" => {
                self.started = true;
                if self.data_len > 0 {
                    self.data_len += 1;
                    self.push_data(b"\n");
                }
                self.data_len += value_len;
                self.push_data(value);
            }
            b"event" => {
                self.started = true;
                self.event.event = Some(String::from_utf8_lossy(value).into_owned());
            }
            b"id" => {
                self.started = true;
                if !value.contains(&0) {
                    self.event.id = Some(String::from_utf8_lossy(value).into_owned());
                }
            }
            b"retry" => {
                self.started = true;
                if !value.is_empty() && value.iter().all(u8::is_ascii_digit) {
                    self.event.retry = std::str::from_utf8(value).ok().and_then(|v| v.parse().ok());
                }
            }
            _ => {} // unknown fields are ignored, as the format says
        }
    }

    fn push_data(&mut self, bytes: &[u8]) {
        let room = self.max_event_bytes.saturating_sub(self.event.data.len());
        self.event
            .data
            .extend_from_slice(&bytes[..bytes.len().min(room)]);
    }

    fn take_event(&mut self) -> SseEvent {
        let mut event = std::mem::take(&mut self.event);
        let full = std::mem::replace(&mut self.data_len, 0);
        self.started = false;
        if full > event.data.len() as u64 {
            event.data_truncated_from = Some(full);
        }
        event
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(chunks: &[&[u8]], max: usize) -> Vec<SseEvent> {
        let mut p = SseParser::new(max);
        let mut out = Vec::new();
        for c in chunks {
            out.extend(p.push(c));
        }
        out.extend(p.finish());
        out
    }

    fn data(events: &[SseEvent]) -> Vec<String> {
        events
            .iter()
            .map(|e| String::from_utf8_lossy(&e.data).into_owned())
            .collect()
    }

    #[test]
    fn fields_comments_and_every_line_ending_are_read_as_the_format_says() {
        let stream = b"\xEF\xBB\xBF: hello\r\nevent: message\rdata: {\"a\":1}\ndata:two\r\nid: 7\nretry: 1500\n\nfoo: bar\ndata\n\n";
        let events = parse(&[stream], 1024);
        assert_eq!(events.len(), 2, "{events:?}");
        assert_eq!(events[0].event.as_deref(), Some("message"));
        assert_eq!(events[0].data, b"{\"a\":1}\ntwo");
        assert_eq!(events[0].id.as_deref(), Some("7"));
        assert_eq!(events[0].retry, Some(1500));
        // A `data` line without a colon is an empty data line.
        assert_eq!(events[1].data, b"");
    }

    #[test]
    fn events_split_anywhere_across_chunks_come_out_the_same() {
        let stream: &[u8] = b"id: 1\r\ndata: hello\r\n\r\ndata: world\r\n\r\n";
        let whole = parse(&[stream], 1024);
        for split in 1..stream.len() {
            let (a, b) = stream.split_at(split);
            assert_eq!(parse(&[a, b], 1024), whole, "split at {split}");
        }
        let bytewise: Vec<&[u8]> = stream.chunks(1).collect();
        assert_eq!(parse(&bytewise, 1024), whole);
        assert_eq!(data(&whole), ["hello", "world"]);
    }

    #[test]
    fn an_event_with_only_an_id_is_dispatched_so_the_id_is_not_lost() {
        let events = parse(&[b"id: 42\ndata:\n\n"], 1024);
        assert_eq!(events[0].id.as_deref(), Some("42"));
        assert!(events[0].data.is_empty());
        assert!(parse(&[b"\n\n: just a comment\n\n"], 1024).is_empty());
    }

    #[test]
    fn an_oversized_event_is_cut_with_its_true_size_and_memory_stays_bounded() {
        let mut p = SseParser::new(8);
        let mut out = p.push(b"data: 0123456789");
        out.extend(p.push(b"abcdef\ndata: more\n"));
        assert!(p.held_bytes() <= 8 + 8 + FIELD_NAME_ROOM);
        out.extend(p.push(b"\n"));
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].data, b"01234567");
        assert_eq!(out[0].data_truncated_from, Some(16 + 1 + 4));
    }

    #[test]
    fn an_endless_data_line_holds_no_more_than_the_bound() {
        let mut p = SseParser::new(1024);
        p.push(b"data: ");
        let chunk = vec![b'x'; 64 * 1024];
        for _ in 0..100 {
            assert!(p.push(&chunk).is_empty());
        }
        assert!(p.held_bytes() <= 2 * 1024 + FIELD_NAME_ROOM);
        assert!(p.in_event());
        let cut = p.finish().expect("the partial event is handed over");
        assert_eq!(cut.data.len(), 1024);
        assert_eq!(cut.data_truncated_from, Some(100 * 64 * 1024));
    }

    #[test]
    fn a_stream_that_ends_mid_event_hands_over_what_it_had() {
        let events = parse(&[b"data: {\"jsonrpc\""], 1024);
        assert_eq!(data(&events), ["{\"jsonrpc\""]);
        assert!(parse(&[b"event: x"], 1024).is_empty());
    }
}
