//! Opening a session: starting the transport (stdio child or HTTP) with its record, and the
//! `initialize` handshake.

use std::sync::atomic::AtomicI64;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde_json::{Value, json};
use tokio::sync::{broadcast, mpsc, watch};

use super::{
    CallOptions, Calls, RequestError, ServerIdentity, Session, SessionOptions, Shared, dispatch,
};
use crate::config::{HttpTarget, StdioTarget};
use crate::era::{Era, EraReason};
use crate::event::{Event, SessionState};
use crate::record::Flag;
use crate::revision as protocol;
use crate::traffic::Traffic;
use crate::transport::http::{HttpMode, HttpTargetError, StreamableHttp};
use crate::transport::stdio::{SpawnError, StdioTransport};
use crate::transport::{Inbound, Transport};
use crate::vocabulary::Problem;
use crate::vocabulary::method::names;

/// The event bus, with the receiver that has heard everything from the start (what the
/// server says may be recorded before a host gets to subscribe).
pub(super) struct Bus {
    pub events: broadcast::Sender<Event>,
    pub first: broadcast::Receiver<Event>,
}

/// What every transport starts with: the event bus, the record, and the frame channel.
type Plumbing = (
    Bus,
    Arc<Traffic>,
    mpsc::Sender<Inbound>,
    mpsc::Receiver<Inbound>,
);

#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    #[error(transparent)]
    Spawn(#[from] SpawnError),
    #[error(transparent)]
    Http(#[from] HttpTargetError),
    #[error("could not open the record file {path}: {source}")]
    Record {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

impl Session {
    /// Starts a stdio server and opens a session with it (no handshake yet: see
    /// [`Session::initialize`]).
    pub fn spawn_stdio(
        target: &StdioTarget,
        options: SessionOptions,
    ) -> Result<Session, ConnectError> {
        Self::spawn_stdio_recorded(target, options, None)
    }

    /// Like [`Session::spawn_stdio`], writing the record to `record` (JSON Lines) from the
    /// first byte on.
    pub fn spawn_stdio_recorded(
        target: &StdioTarget,
        options: SessionOptions,
        record: Option<&std::path::Path>,
    ) -> Result<Session, ConnectError> {
        let (events, traffic, inbound_tx, inbound_rx) = Self::record(record, target.redacted())?;
        let transport = StdioTransport::spawn(
            target,
            options.stdio.clone(),
            &options.limits,
            traffic.clone(),
            inbound_tx,
        )?;
        Ok(Self::start(
            Box::new(transport),
            traffic,
            events,
            options,
            inbound_rx,
        ))
    }

    /// Opens a session with a remote server over HTTP (no request is sent yet). With
    /// [`HttpMode::Auto`], a 400/404/405 to the first POST switches to legacy HTTP+SSE.
    pub fn connect_http(
        target: &HttpTarget,
        mode: HttpMode,
        options: SessionOptions,
        record: Option<&std::path::Path>,
    ) -> Result<Session, ConnectError> {
        let (events, traffic, inbound_tx, inbound_rx) = Self::record(record, target.redacted())?;
        let transport = StreamableHttp::open(
            target,
            traffic.clone(),
            inbound_tx,
            options.limits.clone(),
            mode,
        )?;
        Ok(Self::start(
            Box::new(transport),
            traffic,
            events,
            options,
            inbound_rx,
        ))
    }

    /// The event bus, the record (written to `record` from the first byte on, if given) and
    /// the channel a transport hands frames to: what every transport starts with.
    pub(super) fn record(
        record: Option<&std::path::Path>,
        target: Value,
    ) -> Result<Plumbing, ConnectError> {
        let (events, first) = broadcast::channel(8192);
        let traffic = Arc::new(Traffic::new(events.clone()));
        if let Err(e) = traffic.check_protocol() {
            // The session works without them; the user hears that frames go unchecked.
            let _ = events.send(crate::event::Event::Warning(Problem::ChecksOff {
                detail: e.to_string(),
            }));
        }
        if let Some(path) = record {
            traffic
                .record_to(path, target)
                .map_err(|source| ConnectError::Record {
                    path: path.display().to_string(),
                    source,
                })?;
        }
        let (inbound_tx, inbound_rx) = mpsc::channel(1024);
        Ok((Bus { events, first }, traffic, inbound_tx, inbound_rx))
    }

    pub(super) fn start(
        transport: Box<dyn Transport>,
        traffic: Arc<Traffic>,
        bus: Bus,
        options: SessionOptions,
        inbound: mpsc::Receiver<Inbound>,
    ) -> Session {
        let Bus { events, first } = bus;
        let shared = Arc::new(Shared {
            transport,
            traffic,
            events,
            first_events: Mutex::new(Some(first)),
            options,
            send_lock: tokio::sync::Mutex::new(()),
            next_id: AtomicI64::new(1),
            calls: Mutex::new(Calls::default()),
            state: watch::Sender::new(SessionState::Connected),
            closed: watch::Sender::new(None),
            identity: Mutex::new(None),
            bearer_set: Default::default(),
            tracked: Default::default(),
            modern: Mutex::new(None),
            log_level: Mutex::new(None),
            tool_headers: Mutex::new(Default::default()),
            cache: Mutex::new(Default::default()),
            sign_ins: Default::default(),
            listen: Default::default(),
            lane: Default::default(),
        });
        tokio::spawn(dispatch::run(Arc::downgrade(&shared), inbound));
        Session { shared }
    }

    /// Performs the legacy handshake: `initialize`, then `notifications/initialized` (what
    /// [`Session::handshake`] does for a legacy server).
    ///
    /// A protocol version Periscope does not speak is a warning (in the result, as an event and
    /// as a flag on the response frame), not an error: an inspector shows mismatches.
    pub async fn initialize(&self) -> Result<ServerIdentity, RequestError> {
        self.initialize_because(EraReason::Pinned).await
    }

    pub(super) async fn initialize_because(
        &self,
        era_reason: EraReason,
    ) -> Result<ServerIdentity, RequestError> {
        let s = &self.shared;
        s.set_state(SessionState::Initializing);
        let params = json!({
            "protocolVersion": s.options.protocol_version,
            "capabilities": s.options.capabilities,
            "clientInfo": s.options.client_info,
        });
        let started = Instant::now();
        let (result, seq) = self
            .request_with_seq(names::INITIALIZE, Some(params), CallOptions::default())
            .await?;
        let latency_us = started.elapsed().as_micros() as u64;
        let method = names::INITIALIZE;
        let version = result
            .get("protocolVersion")
            .and_then(Value::as_str)
            .ok_or_else(|| RequestError::Protocol {
                method: method.into(),
                breach: crate::vocabulary::breach::Breach::MissingMember {
                    member: "protocolVersion".into(),
                    expected: "string".into(),
                },
            })?
            .to_string();
        let mut warnings = Vec::new();
        if !protocol::STATEFUL_VERSIONS.contains(&version.as_str()) {
            let warning = Problem::VersionNotSpoken {
                version: version.clone(),
                speaks: protocol::STATEFUL_VERSIONS
                    .iter()
                    .map(|v| v.to_string())
                    .collect(),
            };
            s.traffic.flag(
                seq,
                Flag::UnsupportedProtocolVersion {
                    version: version.clone(),
                },
            );
            let _ = s.events.send(Event::Warning(warning.clone()));
            warnings.push(warning);
        }
        let server_info = result.get("serverInfo").cloned().unwrap_or(Value::Null);
        let capabilities = result.get("capabilities").cloned().unwrap_or(json!({}));
        let identity = ServerIdentity {
            era: Era::Legacy,
            era_reason,
            supported_versions: Vec::new(),
            protocol_version: version.clone(),
            info: crate::vocabulary::views::server::ServerInfoView::read(&server_info),
            offers: crate::vocabulary::views::server::CapabilitiesView::read(&capabilities),
            capabilities,
            server_info,
            instructions: result
                .get("instructions")
                .and_then(Value::as_str)
                .map(str::to_string),
            warnings,
            latency_us,
            transport: s.transport.name().await,
        };
        *s.lock_identity() = Some(identity.clone());
        self.notify(names::INITIALIZED, None)
            .await
            .map_err(|source| RequestError::Send {
                method: names::INITIALIZED.into(),
                source,
            })?;
        // Only now may an HTTP transport open its standalone stream.
        s.transport.negotiated(&version).await;
        s.set_state(SessionState::Ready {
            protocol_version: version,
        });
        Ok(identity)
    }
}
