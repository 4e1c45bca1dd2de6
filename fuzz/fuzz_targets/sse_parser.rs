//! The bounded SSE parser (`transport::sse::SseParser`) fed arbitrary bytes in arbitrary chunks
//! (empty ones included, as a server's HTTP/2 DATA frames can be): no panic; the memory it holds
//! stays within its bound after every chunk; the events do not depend on where the chunks were
//! cut; and bounded events are the unbounded ones cut short, with their true size.
#![no_main]

use libfuzzer_sys::fuzz_target;
use periscope_core::transport::sse::{SseEvent, SseParser};

/// Bytes a line may hold beyond the bound, for its field name (`FIELD_NAME_ROOM` in sse.rs).
const FIELD_NAME_ROOM: usize = 64;

/// The input: `[max: u16 LE] [n] [n chunk sizes] stream`. `max` is the event bound (taken modulo
/// 512, so that cutting is exercised); the chunk sizes are cycled (0: an empty chunk).
struct Input<'a> {
    max: usize,
    chunks: &'a [u8],
    data: &'a [u8],
}

impl Input<'_> {
    fn read(bytes: &[u8]) -> Option<Input<'_>> {
        let (&[lo, hi, n], rest) = bytes.split_first_chunk::<3>()?;
        let (chunks, data) = rest.split_at_checked(usize::from(n))?;
        let max = usize::from(u16::from_le_bytes([lo, hi]) % 512);
        Some(Input { max, chunks, data })
    }
}

/// Feeds `data` in `sizes`-sized chunks, checking the memory bound after each; the events.
fn parse(data: &[u8], sizes: &[u8], max: usize) -> Vec<SseEvent> {
    let mut parser = SseParser::new(max);
    let mut events = Vec::new();
    let mut rest = data;
    let mut empties = 0;
    for &size in sizes.iter().cycle() {
        if rest.is_empty() {
            break;
        }
        if size == 0 {
            empties += 1;
            if empties > 1000 {
                break; // an input of empty chunks only
            }
        }
        let (chunk, after) = rest.split_at(usize::from(size).min(rest.len()));
        rest = after;
        events.extend(parser.push(chunk));
        check_bound(&parser, max);
    }
    events.extend(parser.push(rest));
    check_bound(&parser, max);
    events.extend(parser.finish());
    assert_eq!(parser.held_bytes(), 0, "finish leaves nothing held");
    assert!(!parser.in_event(), "finish ends the event");
    events
}

fn check_bound(parser: &SseParser, max: usize) {
    let held = parser.held_bytes();
    assert!(
        held <= 2 * max + FIELD_NAME_ROOM,
        "holds {held} bytes with a bound of {max}"
    );
}

/// The longest line of `data`, whatever its ending (CRLF, LF or CR).
fn longest_line(data: &[u8]) -> usize {
    data.split(|&b| b == b'\n' || b == b'\r')
        .map(<[u8]>::len)
        .max()
        .unwrap_or(0)
}

fuzz_target!(|bytes: &[u8]| {
    let Some(input) = Input::read(bytes) else {
        return;
    };
    let max = input.max;
    let whole = parse(input.data, &[], max);
    for event in &whole {
        assert!(event.data.len() <= max);
        if let Some(full) = event.data_truncated_from {
            assert!(full > event.data.len() as u64);
        }
    }
    let chunked = parse(input.data, input.chunks, max);
    assert_eq!(chunked, whole, "the chunking changed the events");

    let unbounded = parse(input.data, &[], 1 << 20);
    assert_eq!(
        unbounded.len(),
        whole.len(),
        "the bound changed the number of events"
    );
    let lines_whole = longest_line(input.data) <= max + FIELD_NAME_ROOM;
    for (cut, full) in whole.iter().zip(&unbounded) {
        assert_eq!(full.data_truncated_from, None);
        let kept = full.data.len().min(max);
        assert_eq!(cut.data, full.data[..kept]);
        let true_size = (full.data.len() > max).then_some(full.data.len() as u64);
        assert_eq!(cut.data_truncated_from, true_size);
        if lines_whole {
            // No line was cut, so the other fields are the same.
            assert_eq!(
                (&cut.event, &cut.id, cut.retry),
                (&full.event, &full.id, full.retry)
            );
        }
    }
});
