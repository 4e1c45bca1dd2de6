//! A traffic list's window over one session's record: how many entries a filter keeps, the
//! rows of one stretch of them, where an entry sits among them, full-text search. With a store
//! attached every question goes to it; without one (none was opened, or it failed) the same
//! filter runs over what memory holds, with the same meaning (`TrafficFilter::keeps`), so a
//! host asks one way whatever the record sits on.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::record::CallRound;
use crate::rows::{EntryKind, RoundChip, RowBuilder, RowStatus, TrafficRow, preview};
use crate::store::{
    EntryStatus, SearchHit, StoreError, TextQuery, TrafficFilter, TrafficTail, exchange_body,
    exchange_failed, flag_bits,
};
use crate::traffic::Traffic;
use crate::wire::Direction;

/// What a list shows beside its rows, and what tells it to ask again.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct TrafficSummary {
    /// Entries up to this seq are listed (with a store: committed to it).
    pub listed_to: u64,
    /// Frames off their revision's schema.
    pub violations: u64,
    /// Frames the protocol checks skipped because they were behind.
    pub not_checked: u64,
}

impl Traffic {
    /// How many entries `filter` keeps.
    pub fn window_count(&self, filter: &TrafficFilter) -> Result<u64, StoreError> {
        match self.store() {
            Some(store) => store.count(filter),
            None => Ok(self.memory_rows(filter).len() as u64),
        }
    }

    /// Rows `offset..offset + limit` of what `filter` keeps, in seq order, each with its round
    /// chip when it belongs to a multi round-trip call.
    pub fn window_rows(
        &self,
        filter: &TrafficFilter,
        offset: u64,
        limit: u64,
    ) -> Result<Vec<TrafficRow>, StoreError> {
        self.window_rows_counted(filter, offset, limit, None)
    }

    /// Like [`Traffic::window_rows`], for a list that knows how many rows the filter keeps
    /// (its last count): a window near the end is read from the end ([`Store::rows_counted`]).
    ///
    /// [`Store::rows_counted`]: crate::store::Store::rows_counted
    pub fn window_rows_counted(
        &self,
        filter: &TrafficFilter,
        offset: u64,
        limit: u64,
        count: Option<u64>,
    ) -> Result<Vec<TrafficRow>, StoreError> {
        let mut rows = match self.store() {
            Some(store) => match count {
                Some(count) => store.rows_counted(filter, offset, limit, count)?,
                None => store.rows(filter, offset, limit)?,
            },
            None => self
                .memory_rows(filter)
                .into_iter()
                .skip(offset.min(usize::MAX as u64) as usize)
                .take(limit.min(usize::MAX as u64) as usize)
                .collect(),
        };
        self.chip_rounds(&mut rows);
        Ok(rows)
    }

    /// How many rows `filter` keeps and its newest `tail` or more (from a multiple of `page`),
    /// as of one moment: what a list following the newest frame shows, in one question
    /// ([`Store::tail`]).
    ///
    /// [`Store::tail`]: crate::store::Store::tail
    pub fn window_tail(
        &self,
        filter: &TrafficFilter,
        tail: u64,
        page: u64,
    ) -> Result<TrafficTail, StoreError> {
        let mut tail = match self.store() {
            Some(store) => store.tail(filter, tail, page)?,
            None => {
                let mut rows = self.memory_rows(filter);
                let count = rows.len() as u64;
                let from = crate::store::tail_from(count, tail, page);
                rows.drain(..from as usize);
                TrafficTail { count, from, rows }
            }
        };
        self.chip_rounds(&mut tail.rows);
        Ok(tail)
    }

    /// Gives each row of a multi round-trip call its round chip.
    fn chip_rounds(&self, rows: &mut [TrafficRow]) {
        let rounds = self.rounds_snapshot();
        if rounds.is_empty() {
            return;
        }
        let (chips, count) = round_chips(&rounds);
        for row in rows {
            // A later round's response carries its call too (paired as it was written).
            row.round = chips.get(&row.seq).copied().or_else(|| {
                row.call.map(|call| RoundChip {
                    first_seq: call.first_seq,
                    round: call.round,
                    rounds: count.get(&call.first_seq).copied().unwrap_or(call.round),
                })
            });
        }
    }

    /// Where entry `seq` sits among what `filter` keeps, or `None` when the filter hides it.
    pub fn window_position(
        &self,
        seq: u64,
        filter: &TrafficFilter,
    ) -> Result<Option<u64>, StoreError> {
        match self.store() {
            Some(store) => store.position(seq, filter),
            None => Ok(self
                .memory_rows(filter)
                .iter()
                .position(|r| r.seq == seq)
                .map(|p| p as u64)),
        }
    }

    /// Full-text search over the store's pages; without a store, the same query as a `text`
    /// filter over memory (one matcher for both: `store/text_match.rs`).
    pub fn window_search(
        &self,
        query: &str,
        after_seq: u64,
        limit: u64,
    ) -> Result<Vec<SearchHit>, StoreError> {
        match self.store() {
            Some(store) => store.search(query, after_seq, limit),
            None => {
                let filter = TrafficFilter {
                    text: Some(query.to_string()),
                    ..TrafficFilter::default()
                };
                let text = TextQuery::parse(query);
                Ok(self
                    .memory_rows(&filter)
                    .into_iter()
                    .filter(|r| r.seq > after_seq)
                    .take(limit.min(usize::MAX as u64) as usize)
                    .map(|r| {
                        // The store's snippet around the first hit, from a frame's bytes; a
                        // stderr line or an exchange is its preview already.
                        let snippet = self
                            .frame(r.seq)
                            .zip(text.as_ref())
                            .and_then(|(frame, text)| text.snippet(&frame.bytes));
                        SearchHit {
                            seq: r.seq,
                            snippet: snippet.unwrap_or(r.preview),
                        }
                    })
                    .collect())
            }
        }
    }

    /// How far the list goes and the checks' counts: what a host sends when the record grew.
    pub fn summary(&self) -> TrafficSummary {
        let violations = TrafficFilter {
            statuses: vec![EntryStatus::SchemaViolation],
            ..TrafficFilter::default()
        };
        TrafficSummary {
            listed_to: match self.store() {
                Some(store) => store.committed_to(),
                None => self.last_seq(),
            },
            violations: match self.store() {
                Some(store) => store.count(&violations).unwrap_or(0),
                None => self.schema_violations_in_memory(),
            },
            not_checked: self.not_checked(),
        }
    }

    /// Every entry memory holds as a row, in seq order, that `filter` keeps.
    fn memory_rows(&self, filter: &TrafficFilter) -> Vec<TrafficRow> {
        let memory = self.memory_snapshot();
        let mut status_of: HashMap<u64, i64> = HashMap::new();
        let mut flags_of: HashMap<u64, Vec<crate::record::Flag>> = HashMap::new();
        for record in &memory.flags {
            *status_of.entry(record.seq).or_default() |= flag_bits(&record.flag);
            flags_of
                .entry(record.seq)
                .or_default()
                .push(record.flag.clone());
        }
        let mut rows: Vec<TrafficRow> = Vec::new();
        let mut builder = RowBuilder::default();
        for frame in &memory.frames {
            let mut row = builder.row_in_call(frame, memory.rounds.get(&frame.seq).copied());
            let kind = row.kind;
            let mut status = status_of.get(&frame.seq).copied().unwrap_or(0);
            if kind == EntryKind::ErrorResponse {
                status |= EntryStatus::Error.bit();
            }
            if !frame.verdict.is_valid() {
                status |= EntryStatus::Malformed.bit();
            }
            if !filter.keeps(
                kind,
                frame.direction,
                row.method.as_deref(),
                status,
                frame.wall_us,
                &frame.bytes,
            ) {
                continue;
            }
            row.status = RowStatus::of(status);
            row.flags = flags_of.remove(&frame.seq).unwrap_or_default();
            rows.push(row);
        }
        for line in &memory.stderr {
            let status = status_of.get(&line.seq).copied().unwrap_or(0);
            let body = line.text.as_bytes();
            if filter.keeps(
                EntryKind::Stderr,
                Direction::In,
                None,
                status,
                line.wall_us,
                body,
            ) {
                rows.push(other_row(
                    (line.seq, EntryKind::Stderr, Direction::In),
                    (line.wall_us, line.mono_us),
                    line.text.len() as u64,
                    None,
                    status,
                    body,
                ));
            }
        }
        for exchange in &memory.exchanges {
            let mut status = status_of.get(&exchange.seq).copied().unwrap_or(0);
            if exchange_failed(exchange) {
                status |= EntryStatus::Error.bit();
            }
            let body = exchange_body(exchange);
            if filter.keeps(
                EntryKind::HttpExchange,
                Direction::Out,
                None,
                status,
                exchange.wall_us,
                body.as_bytes(),
            ) {
                rows.push(other_row(
                    (exchange.seq, EntryKind::HttpExchange, Direction::Out),
                    (exchange.wall_us, exchange.mono_us),
                    0,
                    exchange.error.clone(),
                    status,
                    body.as_bytes(),
                ));
            }
        }
        rows.sort_by_key(|r| r.seq);
        rows
    }
}

/// A row for a stderr line or an HTTP exchange, as the store lists it.
fn other_row(
    (seq, kind, direction): (u64, EntryKind, Direction),
    (wall_us, mono_us): (u64, u64),
    size: u64,
    problem: Option<String>,
    status: i64,
    body: &[u8],
) -> TrafficRow {
    TrafficRow {
        seq,
        kind,
        direction,
        wall_us,
        mono_us,
        size,
        method: None,
        id: None,
        latency_us: None,
        problem,
        preview: preview(body),
        call: None,
        status: RowStatus::of(status),
        flags: Vec::new(),
        round: None,
        app_view: None,
    }
}

/// The chip of every frame of a multi round-trip call, from the later rounds' links: a later
/// round's request names its call's first request and the response that asked for input.
/// Also the rounds of each call, by its first request's seq.
fn round_chips(rounds: &[(u64, CallRound)]) -> (HashMap<u64, RoundChip>, HashMap<u64, u32>) {
    let mut count: HashMap<u64, u32> = HashMap::new();
    for (_, call) in rounds {
        let n = count.entry(call.first_seq).or_insert(1);
        *n = (*n).max(call.round);
    }
    let mut chips = HashMap::new();
    for (seq, call) in rounds {
        let rounds = count[&call.first_seq];
        let chip = |round| RoundChip {
            first_seq: call.first_seq,
            round,
            rounds,
        };
        chips.insert(*seq, chip(call.round));
        chips.insert(call.asked_by, chip(call.round.saturating_sub(1)));
        chips.insert(call.first_seq, chip(1));
    }
    (chips, count)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A call of three rounds, as the engine links it: request 3 (round 1) was answered
    /// input_required by 4; request 5 (round 2) by 6; request 7 (round 3) by 8, the result.
    #[test]
    fn every_frame_of_a_call_gets_its_round_and_the_first_request_the_count() {
        let rounds = [
            (
                5,
                CallRound {
                    first_seq: 3,
                    round: 2,
                    asked_by: 4,
                },
            ),
            (
                7,
                CallRound {
                    first_seq: 3,
                    round: 3,
                    asked_by: 6,
                },
            ),
        ];
        let (chips, count) = round_chips(&rounds);
        let round = |seq| chips.get(&seq).map(|c| (c.round, c.rounds, c.first_seq));
        assert_eq!(round(3), Some((1, 3, 3)));
        assert_eq!(round(4), Some((1, 3, 3)), "answered round 1");
        assert_eq!(round(5), Some((2, 3, 3)));
        assert_eq!(round(6), Some((2, 3, 3)));
        assert_eq!(round(7), Some((3, 3, 3)));
        assert_eq!(
            round(8),
            None,
            "the last response carries its call on its row"
        );
        assert_eq!(count[&3], 3);
    }
}
