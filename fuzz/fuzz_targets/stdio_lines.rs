//! The stdio line splitters (`transport::stdio::read_line_bounded`, and `read_frames_bounded`,
//! which the session reads a server with) over arbitrary bytes, read in arbitrary pieces through a
//! real tokio `BufReader`: every line comes out exactly once, cut at the bound with its true
//! length, whatever the pieces, and both give the same lines.
#![no_main]

use std::io;
use std::pin::{Pin, pin};
use std::task::{Context, Poll, Waker};

use libfuzzer_sys::fuzz_target;
use periscope_core::transport::stdio::{read_frames_bounded, read_line_bounded};
use tokio::io::{AsyncRead, BufReader, ReadBuf};

/// The input: `[max] [capacity] [n] [n piece sizes] data`. `max` is the frame bound (small, so
/// that cutting is exercised), `capacity` the `BufReader`'s (0 counts as 1), the piece sizes how
/// many bytes each read hands over (cycled; 0 counts as 1).
struct Input<'a> {
    max: u8,
    capacity: u8,
    pieces: &'a [u8],
    data: &'a [u8],
}

impl Input<'_> {
    fn read(bytes: &[u8]) -> Option<Input<'_>> {
        let (&[max, capacity, n], rest) = bytes.split_first_chunk::<3>()?;
        let (pieces, data) = rest.split_at_checked(usize::from(n))?;
        Some(Input {
            max,
            capacity,
            pieces,
            data,
        })
    }
}

/// A pipe that hands over at most the next piece's size per read.
struct Pieces<'a> {
    data: &'a [u8],
    sizes: &'a [u8],
    next: usize,
}

impl AsyncRead for Pieces<'_> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let size = match self.sizes {
            [] => usize::MAX,
            sizes => usize::from(sizes[self.next % sizes.len()].max(1)),
        };
        self.next += 1;
        let n = size.min(buf.remaining()).min(self.data.len());
        buf.put_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Poll::Ready(Ok(()))
    }
}

/// The reader never waits (its bytes are all there), so one poll settles every call.
fn ready<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(output) => output,
        Poll::Pending => panic!("an in-memory read waited"),
    }
}

fuzz_target!(|bytes: &[u8]| {
    let Some(input) = Input::read(bytes) else {
        return;
    };
    let max = usize::from(input.max);
    let reader = || {
        let pipe = Pieces {
            data: input.data,
            sizes: input.pieces,
            next: 0,
        };
        BufReader::with_capacity(usize::from(input.capacity).max(1), pipe)
    };
    let mut lines = reader();
    let mut got = Vec::new();
    while let Some(line) = ready(read_line_bounded(&mut lines, max)).expect("memory never fails") {
        got.push(line);
        assert!(got.len() <= input.data.len() + 1, "more lines than bytes");
    }
    let mut frames = reader();
    let mut got_frames = Vec::new();
    while let Some(batch) =
        ready(read_frames_bounded(&mut frames, max)).expect("memory never fails")
    {
        assert!(
            !batch.is_empty(),
            "a read that is not the end gives a line or more"
        );
        got_frames.extend(batch.into_iter().map(|(line, cut)| (line.to_vec(), cut)));
        assert!(
            got_frames.len() <= input.data.len() + 1,
            "more lines than bytes"
        );
    }
    assert_eq!(got_frames, got, "the batched reader gives the same lines");

    // What the lines must be: the data split at each `\n`, a last line without one included.
    let mut pieces: Vec<&[u8]> = input.data.split(|&b| b == b'\n').collect();
    if input.data.is_empty() || input.data.ends_with(b"\n") {
        pieces.pop();
    }
    let want: Vec<(Vec<u8>, Option<u64>)> = pieces
        .iter()
        .map(|line| {
            let kept = line[..line.len().min(max)].to_vec();
            (kept, (line.len() > max).then_some(line.len() as u64))
        })
        .collect();
    assert_eq!(got, want);
});
