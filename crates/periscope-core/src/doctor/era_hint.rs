//! A tool that fails in the 2026-07-28 era because it asks the client something mid-call (a
//! server-initiated request, which that era removed), on a server that also speaks the legacy
//! era, where the same tool works.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::Diagnosis;
use crate::era::Era;
use crate::revision::STATEFUL_VERSIONS;
use crate::session::ServerIdentity;

/// The server-initiated requests the 2026-07-28 era removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum RemovedServerRequest {
    Elicitation,
    Sampling,
    Roots,
}

/// The diagnosis for a failure's text, on a modern connection to a server that also lists a
/// legacy version. The server's own words are all there is to go on (SDKs refuse before
/// anything reaches the wire, e.g. FastMCP's "elicitation via server-initiated requests is
/// unavailable on 2026-07-28 connections"), so they are read for two marks: that the
/// server-initiated path or this era is to blame, and which request it was.
pub(super) fn diagnose(
    text: &str,
    data: Option<&Value>,
    identity: Option<&ServerIdentity>,
) -> Option<Diagnosis> {
    let identity = identity.filter(|i| i.era == Era::Modern)?;
    let legacy_versions: Vec<String> = identity
        .supported_versions
        .iter()
        .filter(|v| STATEFUL_VERSIONS.contains(&v.as_str()))
        .cloned()
        .collect();
    if legacy_versions.is_empty() {
        return None;
    }
    let mut words = text.to_ascii_lowercase();
    if let Some(data) = data {
        words.push(' ');
        words.push_str(&data.to_string().to_ascii_lowercase());
    }
    let blames_the_era = ["server-initiated", "2026-07-28", "sep-2577"]
        .iter()
        .any(|mark| words.contains(mark));
    if !blames_the_era {
        return None;
    }
    let request = if words.contains("elicit") {
        RemovedServerRequest::Elicitation
    } else if words.contains("sampling") || words.contains("createmessage") {
        RemovedServerRequest::Sampling
    } else if words.contains("roots") {
        RemovedServerRequest::Roots
    } else {
        return None;
    };
    Some(Diagnosis::NeedsLegacyEra {
        request,
        legacy_versions,
    })
}
