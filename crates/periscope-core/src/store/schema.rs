//! The store's tables, indexes and connection settings (docs/store.md).

use rusqlite::Connection;

/// Bumped when a table changes shape; a store file of another version is not read.
/// 3: bodies in pages (`pages`), no FTS5 index (`bodies`, `body_fts` gone).
pub const SCHEMA_VERSION: i64 = 3;

/// One row per entry of the record, in seq order: frames, stderr lines and HTTP exchanges share
/// the session's one sequence, so one table lists them all and a window is one range scan. Only
/// the columns a list and its filters need live here; bytes are in `pages`, so a filter that
/// scans `entries` reads a few dozen bytes a row, not the frames.
const TABLES: &str = "
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS entries (
    seq INTEGER PRIMARY KEY,
    kind INTEGER NOT NULL,
    direction INTEGER NOT NULL,
    wall_us INTEGER NOT NULL,
    mono_us INTEGER NOT NULL,
    size INTEGER NOT NULL,
    method TEXT,
    rpc_id TEXT,
    latency_us INTEGER,
    status INTEGER NOT NULL,
    problem TEXT,
    call_first INTEGER,
    call_round INTEGER,
    call_asked_by INTEGER,
    truncated_from INTEGER,
    exchange INTEGER,
    -- App frames (directions 2 and 3): the MCP App view's number.
    app_view INTEGER
);
-- The exact bytes of each entry (a frame's bytes, a stderr line's text, `METHOD url status`
-- of an HTTP exchange), a run of entries a row: one insert per page rather than per body, and a
-- full-text search scans the pages (store/pages.rs). The small columns first, so a lookup by
-- seq reads the data of the one page it wants.
CREATE TABLE IF NOT EXISTS pages (
    first_seq INTEGER PRIMARY KEY,
    last_seq INTEGER NOT NULL,
    seqs BLOB NOT NULL,
    ends BLOB NOT NULL,
    data BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS http (
    seq INTEGER PRIMARY KEY,
    exchange TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS flags (
    seq INTEGER NOT NULL,
    flag TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS decisions (
    decision TEXT NOT NULL
);
-- Only the indexes that pay for what they cost at ingest (each one is a B-tree insert per
-- row). No index on the method: it cost the writer about 0.9 µs of its ~2.4 µs a frame, and a
-- scan of 1 000 000 narrow rows answers a method filter in tens of milliseconds
-- (benches/benches/store.rs); kind, direction and time are scanned the same way.
-- Stderr lines and HTTP exchanges are few beside the frames: counting every frame is
-- count(*) less these.
CREATE INDEX IF NOT EXISTS entries_not_frames ON entries(kind) WHERE kind >= 6;
-- Most frames have no status bit: a partial index keeps the rare ones at hand.
CREATE INDEX IF NOT EXISTS entries_status ON entries(status) WHERE status != 0;
CREATE INDEX IF NOT EXISTS flags_seq ON flags(seq);
";

/// Settings every connection gets. WAL: the writer commits while readers query. NORMAL sync
/// in WAL mode survives the app crashing (not the machine losing power), and costs no fsync
/// per batch. Not OFF: the store is the session's only full record (memory keeps the newest
/// entries), and OFF lets a power cut corrupt the file rather than lose its last batches, for
/// a gain lost in the noise of the ingest benchmark (docs/store.md).
pub fn configure(conn: &Connection) -> rusqlite::Result<()> {
    // Set before the first table exists (a file already made keeps its own): 16 KiB pages
    // carry a body page in 4 overflow pages rather than 16, and cost the writer less per
    // frame (benches/benches/store.rs, docs/store.md).
    conn.pragma_update(None, "page_size", 16_384)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    Ok(())
}

/// The writer's own settings: the checkpointer thread copies the WAL back (store/checkpoint.rs);
/// the writer checkpoints itself only past 256 MiB of WAL (16 384 pages of 16 KiB), the bound
/// should that thread fall behind; and a 64 MiB page cache so index pages stay in memory.
pub fn configure_writer(conn: &Connection) -> rusqlite::Result<()> {
    conn.pragma_update(None, "wal_autocheckpoint", 16_384)?;
    conn.pragma_update(None, "cache_size", -65_536)?;
    Ok(())
}

/// Creates the tables on a new file; refuses a file of another schema version before touching
/// it (an older store is left as it was).
pub fn create(conn: &Connection) -> rusqlite::Result<()> {
    // No `meta` table yet: a new file.
    let found: Option<String> = conn
        .query_row(
            "SELECT value FROM meta WHERE key = 'schema_version'",
            [],
            |r| r.get(0),
        )
        .ok();
    if let Some(v) = &found
        && *v != SCHEMA_VERSION.to_string()
    {
        return Err(rusqlite::Error::InvalidParameterName(format!(
            "store schema version {v}, this build reads {SCHEMA_VERSION}"
        )));
    }
    conn.execute_batch(TABLES)?;
    if found.is_none() {
        conn.execute(
            "INSERT INTO meta(key, value) VALUES ('schema_version', ?1)",
            [SCHEMA_VERSION.to_string()],
        )?;
    }
    Ok(())
}
