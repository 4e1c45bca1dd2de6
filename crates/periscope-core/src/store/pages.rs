//! Bodies in pages: the exact bytes of a run of entries (frames, stderr lines, HTTP exchanges'
//! `METHOD url status`) in one row of `pages`, rather than a row and a B-tree insert each. A
//! body is read back by finding its page and slicing it; full-text search scans the pages
//! (docs/store.md).
//!
//! A page holds entries in strictly increasing seq order: `first_seq` (the key), `last_seq`,
//! `seqs` (each entry's seq less `first_seq`, u32 little-endian), `ends` (where each body ends
//! in `data`, u32 little-endian) and `data` (the bodies back to back). An entry recorded out of
//! seq order (an HTTP exchange's seq is reserved before its frames) starts a page of its own, so
//! pages may overlap in seq range: a lookup tries the pages whose range holds the seq, newest
//! start first.

use rusqlite::{CachedStatement, Connection, params};

/// Bytes of bodies a page collects before it is written: big enough that a page's row costs
/// nothing per body, small enough that reading one body back reads little beside it.
pub(crate) const PAGE_BYTES: usize = 64 * 1024;

/// The page being filled by the writer (bodies of one batch at most).
#[derive(Default)]
pub(crate) struct PageBuilder {
    first_seq: u64,
    last_seq: u64,
    seqs: Vec<u8>,
    ends: Vec<u8>,
    data: Vec<u8>,
}

impl PageBuilder {
    fn is_empty(&self) -> bool {
        self.seqs.is_empty()
    }

    /// Adds a body; writes the page first when the body does not belong in it (out of seq
    /// order, too far from its first seq, or the page is full).
    pub(crate) fn push(
        &mut self,
        insert: &mut CachedStatement<'_>,
        seq: u64,
        body: &[u8],
    ) -> rusqlite::Result<()> {
        if !self.is_empty()
            && (seq <= self.last_seq
                || seq - self.first_seq > u32::MAX as u64
                || self.data.len() + body.len() > PAGE_BYTES)
        {
            self.flush(insert)?;
        }
        if self.is_empty() {
            self.first_seq = seq;
        }
        self.last_seq = seq;
        self.seqs
            .extend_from_slice(&((seq - self.first_seq) as u32).to_le_bytes());
        self.data.extend_from_slice(body);
        // A body is capped by the frame size limit, far below 4 GiB; a page of one body bigger
        // than that cannot be made, so the write fails rather than wrap.
        let end = u32::try_from(self.data.len())
            .map_err(|_| rusqlite::Error::ToSqlConversionFailure("body over 4 GiB".into()))?;
        self.ends.extend_from_slice(&end.to_le_bytes());
        Ok(())
    }

    /// Writes the page, if it holds anything (the end of a batch: a page never spans two
    /// transactions, so a committed page is never written again).
    pub(crate) fn flush(&mut self, insert: &mut CachedStatement<'_>) -> rusqlite::Result<()> {
        if self.is_empty() {
            return Ok(());
        }
        insert.execute(params![
            self.first_seq as i64,
            self.last_seq as i64,
            &self.seqs,
            &self.ends,
            &self.data
        ])?;
        self.seqs.clear();
        self.ends.clear();
        self.data.clear();
        Ok(())
    }
}

pub(crate) const INSERT_PAGE: &str =
    "INSERT INTO pages(first_seq, last_seq, seqs, ends, data) VALUES (?1, ?2, ?3, ?4, ?5)";

/// A page read back.
pub(crate) struct Page {
    pub first_seq: u64,
    pub seqs: Vec<u32>,
    pub ends: Vec<u32>,
    pub data: Vec<u8>,
}

impl Page {
    /// The body of entry `seq`, if this page holds it.
    pub(crate) fn body(&self, seq: u64) -> Option<&[u8]> {
        let delta = u32::try_from(seq.checked_sub(self.first_seq)?).ok()?;
        let i = self.seqs.binary_search(&delta).ok()?;
        Some(&self.data[body_range(&self.ends, i)])
    }
}

/// A page's `seqs` or `ends` column read in place (u32 little-endian each): a scan reads only
/// the few it needs (where a hit falls), not every one of a million.
#[derive(Clone, Copy)]
pub(crate) struct U32s<'a>(pub &'a [u8]);

impl U32s<'_> {
    pub(crate) fn len(self) -> usize {
        self.0.len() / 4
    }

    pub(crate) fn get(self, i: usize) -> u32 {
        let b = &self.0[i * 4..i * 4 + 4];
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }

    /// The first index whose value is past `at` (values ascending), or `len()`.
    pub(crate) fn first_past(self, at: u32) -> usize {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.get(mid) <= at {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }
}

/// Where body `i` sits in its page's data.
pub(crate) fn body_range(ends: &[u32], i: usize) -> std::ops::Range<usize> {
    let start = if i == 0 { 0 } else { ends[i - 1] as usize };
    start..ends[i] as usize
}

/// [`body_range`] over a column read in place.
pub(crate) fn body_range_in(ends: U32s<'_>, i: usize) -> std::ops::Range<usize> {
    let start = if i == 0 { 0 } else { ends.get(i - 1) as usize };
    start..ends.get(i) as usize
}

/// Little-endian u32s of a `seqs` or `ends` column, into `out`.
pub(crate) fn decode_u32s(bytes: &[u8], out: &mut Vec<u32>) {
    out.clear();
    out.extend(
        bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
    );
}

/// The page that holds entry `seq`, if any.
pub(crate) fn page_holding(conn: &Connection, seq: u64) -> rusqlite::Result<Option<Page>> {
    let mut stmt = conn.prepare_cached(
        "SELECT first_seq, seqs, ends, data FROM pages
         WHERE first_seq <= ?1 AND last_seq >= ?1 ORDER BY first_seq DESC",
    )?;
    let mut rows = stmt.query([seq as i64])?;
    while let Some(row) = rows.next()? {
        let first_seq = row.get::<_, i64>(0)? as u64;
        let mut seqs = Vec::new();
        decode_u32s(row.get_ref(1)?.as_blob()?, &mut seqs);
        let Ok(i) = u32::try_from(seq - first_seq).map(|d| seqs.binary_search(&d)) else {
            continue;
        };
        if i.is_err() {
            continue;
        }
        let mut ends = Vec::new();
        decode_u32s(row.get_ref(2)?.as_blob()?, &mut ends);
        return Ok(Some(Page {
            first_seq,
            seqs,
            ends,
            data: row.get(3)?,
        }));
    }
    Ok(None)
}

/// Reads bodies of entries asked in (mostly) seq order, keeping the last page read: the rows
/// of a window share a handful of pages.
#[derive(Default)]
pub(crate) struct PageCursor {
    page: Option<Page>,
}

impl PageCursor {
    pub(crate) fn body(&mut self, conn: &Connection, seq: u64) -> rusqlite::Result<Option<&[u8]>> {
        if self.page.as_ref().and_then(|p| p.body(seq)).is_none() {
            self.page = page_holding(conn, seq)?;
        }
        Ok(self.page.as_ref().and_then(|p| p.body(seq)))
    }
}

/// Calls `each(first_seq, seqs, ends, data, lower)` for every page holding an entry after
/// `after_seq`, in order of first seq, until it returns false. `lower` is the page's data
/// ASCII-lowercased by SQLite's `lower()` (byte by byte: A–Z only, every other byte kept, NULs
/// and bytes that are not UTF-8 included), which runs as optimised C even in a debug build of
/// the app; `data` is the page as written when `with_data` (else empty). The slices are
/// borrowed from SQLite (no copy).
pub(crate) fn scan(
    conn: &Connection,
    after_seq: u64,
    with_data: bool,
    mut each: impl FnMut(u64, U32s<'_>, U32s<'_>, &[u8], &[u8]) -> bool,
) -> rusqlite::Result<()> {
    let mut stmt = conn.prepare_cached(if with_data {
        "SELECT first_seq, seqs, ends, data, lower(data) FROM pages WHERE last_seq > ?1
         ORDER BY first_seq"
    } else {
        "SELECT first_seq, seqs, ends, x'', lower(data) FROM pages WHERE last_seq > ?1
         ORDER BY first_seq"
    })?;
    let mut rows = stmt.query([after_seq.min(i64::MAX as u64) as i64])?;
    while let Some(row) = rows.next()? {
        let first_seq = row.get::<_, i64>(0)? as u64;
        let seqs = U32s(row.get_ref(1)?.as_blob()?);
        let ends = U32s(row.get_ref(2)?.as_blob()?);
        let data = row.get_ref(3)?.as_blob()?;
        // Text, from lower(): its bytes as they are (`as_bytes` reads either type).
        let lower = row.get_ref(4)?.as_bytes()?;
        let len = ends
            .len()
            .checked_sub(1)
            .map_or(0, |last| ends.get(last) as usize);
        if lower.len() != len || seqs.len() != ends.len() {
            return Err(rusqlite::Error::ToSqlConversionFailure(
                "a page's columns do not agree".into(),
            ));
        }
        if !each(first_seq, seqs, ends, data, lower) {
            break;
        }
    }
    Ok(())
}
