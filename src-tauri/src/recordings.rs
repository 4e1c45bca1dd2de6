//! Recordings reopened in the app (File → Open, `periscope open FILE`, `periscope-app FILE`):
//! each a read-only engine [`Traffic`] read from a record file, with what the views need
//! beside it (the server's recorded surface, counts, sign-in steps). Nothing in here ever
//! talks to a server. Their ids start with [`ID_PREFIX`], so the record reads of
//! `connection/record.rs` serve them by the same commands as a live server's.

use periscope_core::vocabulary::Problem;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use periscope_core::diff::SurfaceList;
use periscope_core::export::Recording;
use periscope_core::record::{AuthStep, Decision};
use periscope_core::traffic::Traffic;
use periscope_core::view::{RowBuilder, TrafficRow};
use serde::Serialize;
use serde_json::Value;

/// What a reopened recording's id starts with (never a catalog entry's: those are UUIDs or
/// names without a colon).
pub const ID_PREFIX: &str = "recording:";

/// Recordings open at once: each is held whole in memory.
pub const MAX_OPEN: usize = 16;

/// A reopened recording as the sidebar and its Overview show it.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct RecordingInfo {
    pub id: String,
    /// The file's name, shown in the sidebar.
    pub name: String,
    pub path: String,
    /// What was recorded (command or URL, secrets by name only), as the file says.
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub target: Value,
    /// The record format, `MAJOR.MINOR`.
    /// The target in one line: the command and its arguments, or the URL.
    pub target_line: String,
    pub format_version: String,
    pub periscope_version: Option<String>,
    pub started_wall_us: Option<u64>,
    /// "modern" (`server/discover` answered) or "legacy" (`initialize`); None without either.
    pub era: Option<String>,
    pub protocol_version: Option<String>,
    /// `serverInfo` (legacy: in the handshake's result; modern: in its `_meta`).
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub server_info: Option<Value>,
    /// `serverInfo`, read (name, version, …); None when the recording has no handshake.
    pub server: Option<periscope_core::views::ServerInfoView>,
    /// The `initialize` / `server/discover` result, when recorded.
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub identity: Option<Value>,
    pub frames: u64,
    pub exchanges: u64,
    pub stderr_lines: u64,
    pub flags: u64,
    /// Lines of a newer minor format this build skipped.
    pub skipped_lines: u64,
    /// The lists as last fetched completely in the session; None: never listed.
    #[cfg_attr(feature = "ts", ts(type = "Array<unknown> | null"))]
    pub tools: Option<Vec<Value>>,
    #[cfg_attr(feature = "ts", ts(type = "Array<unknown> | null"))]
    pub resources: Option<Vec<Value>>,
    #[cfg_attr(feature = "ts", ts(type = "Array<unknown> | null"))]
    pub resource_templates: Option<Vec<Value>>,
    #[cfg_attr(feature = "ts", ts(type = "Array<unknown> | null"))]
    pub prompts: Option<Vec<Value>>,
    pub auth_steps: Vec<AuthStep>,
    pub decisions: Vec<Decision>,
}

/// One reopened recording.
pub struct Opened {
    pub info: RecordingInfo,
    pub traffic: Arc<Traffic>,
    /// Built when the Traffic tab first asks (opening returns before it).
    rows: OnceLock<Vec<TrafficRow>>,
}

impl Opened {
    /// The entries again as a `Recording` (a copy: for a replay or a comparison, not kept).
    pub fn recording(&self) -> Recording {
        Recording::from_traffic(&self.traffic)
    }

    pub fn rows(&self, from: usize, count: usize) -> Vec<TrafficRow> {
        let rows = self.rows.get_or_init(|| {
            let mut builder = RowBuilder::default();
            self.traffic
                .frames()
                .iter()
                .map(|f| builder.row_in_call(f, self.traffic.round_of(f.seq)))
                .collect()
        });
        let end = from.saturating_add(count).min(rows.len());
        rows.get(from..end).map(<[_]>::to_vec).unwrap_or_default()
    }
}

#[derive(Default)]
pub struct Recordings {
    opened: Mutex<Vec<Arc<Opened>>>,
    next: AtomicU64,
}

impl Recordings {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Arc<Opened>>> {
        self.opened.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Reads the record file at `path` (bounded: `Recording::read`) and keeps it open. The
    /// same file opened again is the same recording, read afresh.
    pub fn open(&self, path: &Path) -> Result<RecordingInfo, Problem> {
        let recording = Recording::read(path).map_err(|e| Problem::io(path, e))?;
        let shown = path.display().to_string();
        let mut opened = self.lock();
        let id = match opened.iter().position(|o| o.info.path == shown) {
            Some(i) => opened.remove(i).info.id.clone(),
            None => format!(
                "{ID_PREFIX}{}",
                self.next.fetch_add(1, Ordering::SeqCst) + 1
            ),
        };
        if opened.len() >= MAX_OPEN {
            return Err(Problem::LimitHit {
                what: periscope_core::vocabulary::problem::Limit::OpenRecordings,
                limit: MAX_OPEN as u64,
                asked: None,
            });
        }
        let name = path
            .file_name()
            .map_or_else(|| shown.clone(), |n| n.to_string_lossy().into_owned());
        let item = Arc::new(reopen(id, name, shown, recording));
        let info = item.info.clone();
        opened.push(item);
        Ok(info)
    }

    pub fn get(&self, id: &str) -> Option<Arc<Opened>> {
        if !id.starts_with(ID_PREFIX) {
            return None;
        }
        self.lock().iter().find(|o| o.info.id == id).cloned()
    }

    /// The record of a reopened recording, when `id` names one: the lookup
    /// `connection/record.rs` asks first.
    pub fn traffic(&self, id: &str) -> Option<Arc<Traffic>> {
        self.get(id).map(|o| o.traffic.clone())
    }

    pub fn list(&self) -> Vec<RecordingInfo> {
        self.lock().iter().map(|o| o.info.clone()).collect()
    }

    pub fn close(&self, id: &str) {
        self.lock().retain(|o| o.info.id != id);
    }
}

fn reopen(id: String, name: String, path: String, recording: Recording) -> Opened {
    let (summary, surface) = periscope_core::summary::Summary::read(&recording);
    let list = |kind: SurfaceList| surface.lists.get(&kind).cloned();
    let info = RecordingInfo {
        id,
        name,
        path,
        target_line: recording
            .target
            .as_ref()
            .map(periscope_core::summary::target_line)
            .unwrap_or_default(),
        target: recording.target.clone().unwrap_or(Value::Null),
        format_version: recording
            .format_version
            .map(|v| v.to_string())
            .unwrap_or_default(),
        periscope_version: recording.periscope_version.clone(),
        started_wall_us: recording.started_wall_us,
        era: summary.era.map(str::to_string),
        protocol_version: summary.protocol_version,
        server: summary
            .server_info
            .as_ref()
            .map(periscope_core::views::ServerInfoView::read),
        server_info: summary.server_info,
        identity: surface.identity.clone(),
        frames: recording.frames.len() as u64,
        exchanges: recording.exchanges.len() as u64,
        stderr_lines: recording.stderr.len() as u64,
        flags: recording.flags.len() as u64,
        skipped_lines: recording.skipped_lines as u64,
        tools: list(SurfaceList::Tools),
        resources: list(SurfaceList::Resources),
        resource_templates: list(SurfaceList::ResourceTemplates),
        prompts: list(SurfaceList::Prompts),
        auth_steps: recording.auth_steps.clone(),
        decisions: recording.decisions.clone(),
    };
    // The entries move into the record (no second copy of a million frames).
    Opened {
        info,
        traffic: recording.into_traffic(),
        rows: OnceLock::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_file_opens_with_its_surface_and_rows_and_a_bad_one_says_why() {
        let dir = std::env::temp_dir().join(format!("periscope-app-rec-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("demo.jsonl");
        let lines = [
            r#"{"type":"session","format_version":"1.1","periscope_version":"0.1.0","started_wall_us":1,"target":{"command":"demo"}}"#,
            r#"{"type":"frame","seq":1,"direction":"out","wall_us":2,"mono_us":1,"bytes":{"text":"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}"},"verdict":{"kind":"request","id":1,"method":"initialize"}}"#,
            r#"{"type":"frame","seq":2,"direction":"in","wall_us":3,"mono_us":2,"bytes":{"text":"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-11-25\",\"serverInfo\":{\"name\":\"demo\"}}}"},"verdict":{"kind":"response","id":1,"is_error":false}}"#,
            r#"{"type":"frame","seq":3,"direction":"out","wall_us":4,"mono_us":3,"bytes":{"text":"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}"},"verdict":{"kind":"request","id":2,"method":"tools/list"}}"#,
            r#"{"type":"frame","seq":4,"direction":"in","wall_us":5,"mono_us":4,"bytes":{"text":"{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":[{\"name\":\"echo\"}]}}"},"verdict":{"kind":"response","id":2,"is_error":false}}"#,
        ];
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        let recordings = Recordings::default();
        let info = recordings.open(&path).unwrap();
        assert!(info.id.starts_with(ID_PREFIX));
        assert_eq!(info.name, "demo.jsonl");
        assert_eq!(info.era.as_deref(), Some("legacy"));
        assert_eq!(info.protocol_version.as_deref(), Some("2025-11-25"));
        assert_eq!(info.server_info.as_ref().unwrap()["name"], "demo");
        assert_eq!(info.tools.as_ref().map(Vec::len), Some(1));
        assert_eq!(info.prompts, None);
        let opened = recordings.get(&info.id).unwrap();
        let rows = opened.rows(0, 10);
        assert_eq!(rows.len(), 4);
        assert_eq!(rows[3].method.as_deref(), Some("tools/list"));
        assert!(rows[3].latency_us.is_some(), "the response is paired");
        // Opening it again is the same recording.
        assert_eq!(recordings.open(&path).unwrap().id, info.id);
        assert_eq!(recordings.list().len(), 1);

        std::fs::write(&path, "not json\n").unwrap();
        let error = recordings.open(&path).unwrap_err().to_string();
        assert!(error.contains("line 1"), "{error}");
        recordings.close(&info.id);
        assert!(recordings.traffic(&info.id).is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
