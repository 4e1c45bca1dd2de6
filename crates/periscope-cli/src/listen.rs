//! `periscope listen`: the server's notifications, one a line on stdout, as they arrive, until
//! Ctrl-C or `--for`. A modern server gets a listen stream (`subscriptions/listen`) with the
//! kinds asked for, and its state goes to stderr; a legacy one sends list changes unasked, and
//! `--resource` subscribes with `resources/subscribe`.

use std::time::Duration;

use periscope_core::era::Era;
use periscope_core::event::{Event, ServerNotification, SessionState};
use periscope_core::session::Session;
use periscope_core::subscription::ListenFilter;
use tokio::sync::broadcast::error::RecvError;

use crate::args::Format;

/// How many of the server's last stderr lines are said when it goes away.
const STDERR_TAIL: usize = 5;
use crate::exit::Exit;
use crate::output;

/// What was asked on the command line.
pub struct Asked<'a> {
    pub tools: bool,
    pub prompts: bool,
    pub resources: bool,
    pub resource: &'a [String],
    pub duration: Option<f64>,
}

impl Asked<'_> {
    fn filter(&self) -> ListenFilter {
        let mut filter = if self.tools || self.prompts || self.resources {
            ListenFilter {
                tools_list_changed: self.tools,
                prompts_list_changed: self.prompts,
                resources_list_changed: self.resources,
                ..ListenFilter::default()
            }
        } else if self.resource.is_empty() {
            ListenFilter::list_changes()
        } else {
            ListenFilter::default()
        };
        filter.resource_subscriptions = self.resource.iter().cloned().collect();
        filter
    }
}

pub async fn run(session: &Session, asked: Asked<'_>, format: Format, quiet: bool) -> Exit {
    let duration = match asked.duration {
        Some(s) if !(s.is_finite() && s >= 0.0) => {
            tell!("periscope: --for takes a number of seconds, not {s}");
            return Exit::Usage;
        }
        Some(s) => Some(Duration::from_secs_f64(s.min(1e9))),
        None => None,
    };
    // Subscribed before the stream opens: nothing that arrives is missed.
    let mut events = session.subscribe();
    let filter = asked.filter();
    let opened = if session.era() == Some(Era::Modern) {
        session.listen(filter).await.map(|acknowledged| {
            if !quiet {
                tell!("periscope: listening for {}", acknowledged.describe());
            }
        })
    } else {
        let mut result = Ok(());
        for uri in &filter.resource_subscriptions {
            result = session.subscribe_resource(uri).await;
            if result.is_err() {
                break;
            }
        }
        if result.is_ok() && !quiet {
            tell!("periscope: listening (a legacy server sends list changes unasked)");
        }
        result
    };
    if let Err(e) = opened {
        tell!("periscope: {e}");
        return output::exit_for(&e);
    }
    let until = async {
        match duration {
            Some(d) => tokio::time::sleep(d).await,
            None => std::future::pending().await,
        }
    };
    tokio::pin!(until);
    loop {
        let event = tokio::select! {
            event = events.recv() => event,
            () = &mut until => return Exit::Ok,
            _ = tokio::signal::ctrl_c() => return Exit::Ok,
        };
        match event {
            Ok(Event::Notification(n)) => print(&n, format),
            Ok(Event::Listen(state)) if !quiet => tell!("periscope: {}", state.describe()),
            // The server went away while listened to: how, its last words, and what to do.
            Ok(Event::StateChanged(SessionState::Closed { cause })) => {
                let stderr_tail = session.traffic().stderr_tail(STDERR_TAIL);
                tell!(
                    "periscope: the connection ended: {cause}{}",
                    crate::terminal::safe(&periscope_core::vocabulary::problem::stderr_tail(
                        &stderr_tail
                    ))
                );
                crate::hints::tell_all(&periscope_core::doctor::after_close(&cause, &stderr_tail));
                return Exit::Connect;
            }
            Ok(_) => {}
            Err(RecvError::Lagged(n)) => {
                tell!("periscope: warning: {n} events were skipped (the record has every frame)")
            }
            Err(RecvError::Closed) => return Exit::Connect,
        }
    }
}

/// One notification a line: the method (and the URI of an update), or its JSON.
fn print(n: &ServerNotification, format: Format) {
    if matches!(n, ServerNotification::Progress(_)) {
        return;
    }
    match format {
        Format::Json => say!("{}", serde_json::to_string(n).unwrap_or_default()),
        Format::Text => match n {
            ServerNotification::ResourceUpdated { uri } => say!("{} {uri}", n.method()),
            n => say!("{}", n.method()),
        },
    }
}
