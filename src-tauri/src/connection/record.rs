//! Reads of a connection's record (rows, frame details, HTTP exchanges, stderr, decisions),
//! and the URL consent decisions the user adds to it.

use std::sync::Arc;

use periscope_core::answering::UrlDecision;
use periscope_core::record::{Decision, DecisionKind, HttpExchange, StderrLine};
use periscope_core::traffic::{Traffic, wall_now_us};
use periscope_core::view::{AppEvent, FrameDetail, FrameRow};

use super::{AppState, lock};

impl AppState {
    /// The record of a server, live or ended, or of a reopened recording (`recordings.rs`):
    /// the one door the record reads below go through.
    pub fn traffic_of(&self, server_id: &str) -> Result<Arc<Traffic>, String> {
        self.maybe_traffic(server_id)?
            .ok_or_else(|| "no traffic was recorded".to_string())
    }

    /// Like [`AppState::traffic_of`]; None for a server that could not even be started.
    fn maybe_traffic(&self, server_id: &str) -> Result<Option<Arc<Traffic>>, String> {
        if let Some(traffic) = self.recordings.traffic(server_id) {
            return Ok(Some(traffic));
        }
        let conn = self.recorded(server_id)?;
        Ok(conn.session.as_ref().map(|s| s.traffic().clone()))
    }

    pub fn rows(
        &self,
        server_id: &str,
        from: usize,
        count: usize,
    ) -> Result<Vec<FrameRow>, String> {
        if let Some(opened) = self.recordings.get(server_id) {
            return Ok(opened.rows(from, count));
        }
        let conn = self.recorded(server_id)?;
        let rows = lock(&conn.rows);
        let end = from.saturating_add(count).min(rows.len());
        Ok(rows.get(from..end).map(<[_]>::to_vec).unwrap_or_default())
    }

    pub fn frame_detail(&self, server_id: &str, seq: u64) -> Result<FrameDetail, String> {
        let traffic = self.traffic_of(server_id)?;
        let frame = traffic
            .frame(seq)
            .ok_or_else(|| format!("no frame {seq} in the record"))?;
        Ok(FrameDetail::of(
            &frame,
            traffic.flags_of(seq),
            traffic.call_of(seq),
        ))
    }

    /// The session whose record an export reads (a disconnected server's record stays).
    pub fn session_record(
        &self,
        server_id: &str,
    ) -> Result<std::sync::Arc<periscope_core::session::Session>, String> {
        let conn = self.recorded(server_id)?;
        conn.session
            .clone()
            .ok_or_else(|| "no traffic was recorded".to_string())
    }

    pub fn http_exchanges(&self, server_id: &str) -> Result<Vec<HttpExchange>, String> {
        Ok(self.maybe_traffic(server_id)?.map_or_else(Vec::new, |t| {
            t.exchanges().iter().map(|e| (**e).clone()).collect()
        }))
    }

    pub fn stderr_lines(&self, server_id: &str) -> Result<Vec<StderrLine>, String> {
        Ok(self.maybe_traffic(server_id)?.map_or_else(Vec::new, |t| {
            t.stderr().iter().map(|l| (**l).clone()).collect()
        }))
    }

    pub fn decisions(&self, server_id: &str) -> Result<Vec<Decision>, String> {
        Ok(self
            .maybe_traffic(server_id)?
            .map_or_else(Vec::new, |t| t.decisions()))
    }

    /// Records a consent decision about a URL the server named outside an elicitation request
    /// (a -32042 error) and opens it when the user chose Open.
    pub fn consent_url(
        &self,
        server_id: &str,
        url: &str,
        elicitation_id: &str,
        decision: UrlDecision,
    ) -> Result<(), String> {
        let word = match decision {
            UrlDecision::Open => DecisionKind::Open,
            UrlDecision::AcceptWithoutOpening => DecisionKind::AcceptWithoutOpening,
            UrlDecision::Decline => DecisionKind::Decline,
            UrlDecision::Cancel => DecisionKind::Cancel,
        };
        let opened = match decision {
            UrlDecision::Open => self.asks.open(url),
            _ => Ok(()),
        };
        let decision = Decision {
            wall_us: wall_now_us(),
            request_id: None,
            method: "URLElicitationRequiredError".into(),
            decision: if opened.is_ok() {
                word
            } else {
                DecisionKind::OpenFailed
            },
            detail: Some(url.into()),
            elicitation_id: Some(elicitation_id.into()),
        };
        if let Ok(conn) = self.recorded(server_id)
            && let Some(session) = &conn.session
        {
            session.traffic().decide(decision.clone());
        }
        self.hub.send(AppEvent::Decision {
            server_id: server_id.into(),
            decision,
        });
        opened
    }
}
