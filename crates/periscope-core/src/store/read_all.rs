//! Reading a whole record back, page by page: what an export needs (every frame, stderr line,
//! HTTP exchange and flag), where a list only ever asks for windows.

use std::sync::Arc;

use super::pages::PageCursor;
use super::{Store, StoreError};
use crate::record::{FlagRecord, HttpExchange, StderrLine};
use crate::rows::EntryKind;
use crate::wire::Frame;

/// Entries one page reads: a page of frames at the size limit stays bounded.
const PAGE: i64 = 4096;

impl Store {
    /// The frames with seq after `after_seq`, in seq order, at most one page: call again with
    /// the last seq until it returns none.
    pub fn frames_after(&self, after_seq: u64) -> Result<Vec<Arc<Frame>>, StoreError> {
        self.frames_from(after_seq.saturating_add(1), PAGE)
    }

    /// Every frame of the record, in seq order.
    pub fn all_frames(&self) -> Result<Vec<Arc<Frame>>, StoreError> {
        let mut all = Vec::new();
        let mut after = 0;
        loop {
            let page = self.frames_after(after)?;
            let Some(last) = page.last() else {
                return Ok(all);
            };
            after = last.seq;
            all.extend(page);
        }
    }

    /// Every stderr line of the record, in seq order.
    pub fn all_stderr(&self) -> Result<Vec<StderrLine>, StoreError> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(
            "SELECT seq, wall_us, mono_us FROM entries WHERE kind = ?1 ORDER BY seq",
        )?;
        let heads = stmt
            .query_map([EntryKind::Stderr.code()], |r| {
                Ok((
                    r.get::<_, i64>(0)? as u64,
                    r.get::<_, i64>(1)? as u64,
                    r.get::<_, i64>(2)? as u64,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let mut cursor = PageCursor::default();
        let mut lines = Vec::with_capacity(heads.len());
        for (seq, wall_us, mono_us) in heads {
            let text = cursor.body(&conn, seq)?.unwrap_or_default();
            lines.push(StderrLine {
                seq,
                wall_us,
                mono_us,
                text: String::from_utf8_lossy(text).into_owned(),
            });
        }
        Ok(lines)
    }

    /// Every HTTP exchange of the record, in seq order.
    pub fn all_exchanges(&self) -> Result<Vec<HttpExchange>, StoreError> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached("SELECT exchange FROM http ORDER BY seq")?;
        let exchanges = stmt
            .query_map([], |r| r.get::<_, String>(0))?
            .filter_map(|e| e.ok().and_then(|e| serde_json::from_str(&e).ok()))
            .collect();
        Ok(exchanges)
    }

    /// Every flag of the record, in the order they were raised.
    pub fn all_flags(&self) -> Result<Vec<FlagRecord>, StoreError> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached("SELECT seq, flag FROM flags ORDER BY rowid")?;
        let flags = stmt
            .query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))?
            .filter_map(|f| {
                let (seq, flag) = f.ok()?;
                Some(FlagRecord {
                    seq: seq as u64,
                    flag: serde_json::from_str(&flag).ok()?,
                })
            })
            .collect();
        Ok(flags)
    }
}
