//! The skeleton both providers' stream decoders share: the answer put together block by block
//! as events arrive (each piece also said as a [`StreamEvent`]), what the stream said about its
//! end, the guard that ignores empty events and anything after the closing one, and the loop
//! that reads a streamed body into a decoder. A provider (`openai.rs`, `anthropic.rs`) only maps
//! its events onto an [`Answer`] ([`EventMapping`]).

use std::time::Instant;

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::ModelError;
use super::chat::{Assembled, Block, Building, StopReason, StreamEvent, Usage};
use super::http::{SseBody, scrub_error};
use crate::transport::sse::SseEvent;

/// How a provider's events map onto the answer.
pub trait EventMapping: Default {
    /// The event that closes a stream, named when a stream ends without it.
    const CLOSING: &'static str;

    /// What one event says: its pieces go into `answer` and, as they come, to `out`. Called only
    /// for events with data, before the closing one.
    fn map(
        &mut self,
        event: &SseEvent,
        answer: &mut Answer,
        out: &mut Vec<StreamEvent>,
    ) -> Result<(), ModelError>;
}

/// Puts a streamed answer together, event by event, with a provider's mapping.
#[derive(Debug, Default)]
pub struct Decoder<M> {
    mapping: M,
    answer: Answer,
}

impl<M: EventMapping> Decoder<M> {
    pub fn new() -> Self {
        Decoder {
            mapping: M::default(),
            answer: Answer::default(),
        }
    }

    /// Whether the stream's closing event came.
    pub fn is_done(&self) -> bool {
        self.answer.end.done
    }

    /// What one event says.
    pub fn event(&mut self, event: &SseEvent) -> Result<Vec<StreamEvent>, ModelError> {
        let mut out = Vec::new();
        if event.data.is_empty() || self.answer.end.done {
            return Ok(out);
        }
        self.mapping.map(event, &mut self.answer, &mut out)?;
        Ok(out)
    }

    /// The answer, once the stream has ended: an error when it ended before its closing event.
    pub fn finish(self) -> Result<Assembled, ModelError> {
        self.answer.finish(M::CLOSING)
    }
}

/// The blocks of an answer being put together, and what the stream said about its end.
#[derive(Debug, Default)]
pub struct Answer {
    /// In the order they started; a block that is no part of the answer (a provider's
    /// thinking) holds a place that stays empty.
    building: Vec<Option<Building>>,
    pub(crate) end: StreamEnd,
}

impl Answer {
    /// Starts a text block with `text` (said when not empty); returns its place.
    pub fn open_text(&mut self, text: &str, out: &mut Vec<StreamEvent>) -> usize {
        if !text.is_empty() {
            out.push(StreamEvent::TextDelta {
                text: text.to_string(),
            });
        }
        self.open(Some(Building::Text(text.to_string())))
    }

    /// Starts a tool call (said); returns its place.
    pub fn open_tool(&mut self, id: String, name: String, out: &mut Vec<StreamEvent>) -> usize {
        out.push(StreamEvent::ToolUseStart {
            id: id.clone(),
            name: name.clone(),
        });
        self.open(Some(Building::Tool {
            id,
            name,
            json: String::new(),
        }))
    }

    /// Holds a place for a block that is no part of the answer; returns it.
    pub fn skip_block(&mut self) -> usize {
        self.open(None)
    }

    fn open(&mut self, block: Option<Building>) -> usize {
        self.building.push(block);
        self.building.len() - 1
    }

    /// Adds `piece` to the text block at `place` (said); nothing when that is no text block.
    pub fn push_text(&mut self, place: usize, piece: &str, out: &mut Vec<StreamEvent>) {
        if let Some(Some(Building::Text(text))) = self.building.get_mut(place) {
            text.push_str(piece);
            out.push(StreamEvent::TextDelta {
                text: piece.to_string(),
            });
        }
    }

    /// Adds `piece` to the input of the tool call at `place` (said); nothing when that is no
    /// tool call.
    pub fn push_tool_input(&mut self, place: usize, piece: &str, out: &mut Vec<StreamEvent>) {
        if let Some(Some(Building::Tool { id, json, .. })) = self.building.get_mut(place) {
            json.push_str(piece);
            out.push(StreamEvent::ToolInputDelta {
                id: id.clone(),
                partial: piece.to_string(),
            });
        }
    }

    /// The usage so far (said).
    pub fn set_usage(&mut self, usage: Usage, out: &mut Vec<StreamEvent>) {
        self.end.usage = usage;
        out.push(StreamEvent::Usage {
            input: usage.input,
            output: usage.output,
        });
    }

    /// The usage counted so far.
    pub fn usage(&self) -> Usage {
        self.end.usage
    }

    pub fn set_model(&mut self, model: &str) {
        self.end.model = Some(model.to_string());
    }

    pub fn set_stop(&mut self, stop: StopReason) {
        self.end.stop = Some(stop);
    }

    /// The stream's closing event came: what follows is ignored.
    pub fn close(&mut self) {
        self.end.done = true;
    }

    fn finish(self, closing: &str) -> Result<Assembled, ModelError> {
        let blocks: Vec<Block> = self
            .building
            .into_iter()
            .flatten()
            .map(Building::finish)
            .collect();
        self.end.assemble(blocks, closing)
    }
}

/// What a provider's stream decoder keeps besides the blocks it builds: how the answer
/// stopped, what it used, which model answered, and whether the stream's closing event came.
#[derive(Debug, Default)]
pub(crate) struct StreamEnd {
    pub stop: Option<StopReason>,
    pub usage: Usage,
    pub model: Option<String>,
    pub done: bool,
}

impl StreamEnd {
    /// The answer made of `blocks`; an error when the stream ended before its `closing` event.
    pub fn assemble(self, blocks: Vec<Block>, closing: &str) -> Result<Assembled, ModelError> {
        if !self.done {
            return Err(ModelError::protocol(format!(
                "the stream ended before {closing}: the answer is incomplete"
            )));
        }
        Ok(Assembled {
            blocks,
            stop: self.stop,
            usage: self.usage,
            model: self.model,
        })
    }
}

/// Reads a streamed answer through `decoder`, each piece to `tx` as it is decoded (a closed
/// receiver is fine), until the body ends or the closing event came. Returns the answer and
/// when its first token came (microseconds after `started`). Errors are scrubbed of `secret`.
pub(crate) async fn read_stream<M: EventMapping>(
    body: &mut SseBody,
    mut decoder: Decoder<M>,
    tx: &mpsc::Sender<StreamEvent>,
    cancel: &CancellationToken,
    secret: Option<&str>,
    started: Instant,
) -> Result<(Assembled, Option<u64>), ModelError> {
    let mut first_token_us = None;
    while let Some(events) = body.next(cancel).await? {
        for event in events {
            let decoded = decoder.event(&event).map_err(|e| scrub_error(e, secret))?;
            for e in decoded {
                if first_token_us.is_none()
                    && matches!(
                        e,
                        StreamEvent::TextDelta { .. } | StreamEvent::ToolUseStart { .. }
                    )
                {
                    first_token_us = Some(started.elapsed().as_micros() as u64);
                }
                let _ = tx.send(e).await;
            }
        }
        if decoder.is_done() {
            // Whatever follows the end (a keep-alive, nothing) is not waited for.
            break;
        }
    }
    let assembled = decoder.finish().map_err(|e| scrub_error(e, secret))?;
    Ok((assembled, first_token_us))
}

/// Feeds a recorded byte stream through the SSE parser and a provider's decoder, in pieces of
/// `piece` bytes (so events split across reads as they do on a socket): the one loop both
/// decoders' tests run.
#[cfg(test)]
pub(crate) fn decode_recorded<M: EventMapping>(
    bytes: &[u8],
    piece: usize,
) -> (Vec<StreamEvent>, Result<Assembled, ModelError>) {
    let mut decoder = Decoder::<M>::new();
    let mut parser = crate::transport::sse::SseParser::new(1 << 20);
    let mut sse = Vec::new();
    for chunk in bytes.chunks(piece) {
        sse.extend(parser.push(chunk));
    }
    sse.extend(parser.finish());
    let mut events = Vec::new();
    for e in sse {
        match decoder.event(&e) {
            Ok(mut more) => events.append(&mut more),
            Err(err) => return (events, Err(err)),
        }
    }
    (events, decoder.finish())
}
