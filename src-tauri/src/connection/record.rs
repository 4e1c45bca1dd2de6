//! Reads of a connection's record (window queries over the traffic, frame details, HTTP
//! exchanges, stderr, decisions), and the URL consent decisions the user adds to it. Every read
//! goes through [`AppState::traffic_of`]: the one door to a record, whoever holds it.

use periscope_core::vocabulary::Problem;
use std::path::PathBuf;
use std::sync::Arc;

use periscope_core::answering::UrlDecision;
use periscope_core::record::{Decision, DecisionKind, HttpExchange, StderrLine};
use periscope_core::traffic::{Traffic, wall_now_us};
use periscope_core::traffic_window::TrafficSummary;
use periscope_core::view::{AppEvent, FrameDetail};

use super::{AppState, lock};

impl AppState {
    /// The record of a server, live or ended, or of a reopened recording (`recordings.rs`):
    /// the one door the record reads below go through.
    pub fn traffic_of(&self, server_id: &str) -> Result<Arc<Traffic>, Problem> {
        self.maybe_traffic(server_id)?.ok_or_else(|| {
            Problem::not_found(
                periscope_core::vocabulary::problem::Thing::Record,
                server_id,
            )
        })
    }

    /// Like [`AppState::traffic_of`]; None for a server that could not even be started.
    fn maybe_traffic(&self, server_id: &str) -> Result<Option<Arc<Traffic>>, Problem> {
        if let Some(traffic) = self.recordings.traffic(server_id) {
            return Ok(Some(traffic));
        }
        let conn = self.recorded(server_id)?;
        Ok(conn.session.as_ref().map(|s| s.traffic().clone()))
    }

    /// The store files sessions are writing now (never deleted while in use).
    pub(super) fn store_files(&self) -> Vec<PathBuf> {
        lock(&self.conns)
            .values()
            .filter_map(|c| c.session.as_ref()?.traffic().store())
            .map(|s| s.path().to_path_buf())
            .collect()
    }

    /// How far a server's record goes; nothing (an empty summary) for a server that never
    /// started, which has no record and is not a failure to read one.
    pub fn traffic_summary(&self, server_id: &str) -> Result<TrafficSummary, Problem> {
        Ok(self
            .maybe_traffic(server_id)?
            .map_or_else(TrafficSummary::default, |t| t.summary()))
    }

    pub fn frame_detail(&self, server_id: &str, seq: u64) -> Result<FrameDetail, Problem> {
        let traffic = self.traffic_of(server_id)?;
        let frame = traffic.frame(seq).ok_or_else(|| {
            Problem::not_found(periscope_core::vocabulary::problem::Thing::Frame, seq)
        })?;
        Ok(
            FrameDetail::of(&frame, traffic.flags_of(seq), traffic.call_of(seq))
                .with_partner(traffic.partner_of(seq)),
        )
    }

    /// The HTTP exchanges memory holds (the Network tab lists the newest).
    pub fn http_exchanges(&self, server_id: &str) -> Result<Vec<HttpExchange>, Problem> {
        Ok(self.maybe_traffic(server_id)?.map_or_else(Vec::new, |t| {
            t.exchanges().iter().map(|e| (**e).clone()).collect()
        }))
    }

    /// The stderr lines memory holds (the Console lists the newest).
    pub fn stderr_lines(&self, server_id: &str) -> Result<Vec<StderrLine>, Problem> {
        Ok(self.maybe_traffic(server_id)?.map_or_else(Vec::new, |t| {
            t.stderr().iter().map(|l| (**l).clone()).collect()
        }))
    }

    /// What was decided about the server's requests (the Requests tab's history). The era
    /// fallback is a decision of the record's too, but about the connection: Overview says it.
    pub fn decisions(&self, server_id: &str) -> Result<Vec<Decision>, Problem> {
        Ok(self
            .maybe_traffic(server_id)?
            .map_or_else(Vec::new, |t| t.decisions())
            .into_iter()
            .filter(|d| d.decision != DecisionKind::EraFallback)
            .collect())
    }

    /// Records a consent decision about a URL the server named outside an elicitation request
    /// (a -32042 error) and opens it when the user chose Open.
    pub fn consent_url(
        &self,
        server_id: &str,
        url: &str,
        elicitation_id: &str,
        decision: UrlDecision,
    ) -> Result<(), Problem> {
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
        if let Ok(traffic) = self.traffic_of(server_id) {
            traffic.decide(decision.clone());
        }
        self.hub.send(AppEvent::Decision {
            server_id: server_id.into(),
            decision,
        });
        opened
    }
}
