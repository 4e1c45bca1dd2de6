//! The connection doctor's diagnoses in English: a `periscope: hint: …` line each, under the
//! error they explain (docs/troubleshooting.md lists them).

use periscope_core::doctor::{Diagnosis, RemovedServerRequest};
use periscope_core::transport::TlsProblem;

/// Prints each diagnosis's hint on stderr.
pub fn tell_all(found: &[Diagnosis]) {
    for diagnosis in found {
        for line in words(diagnosis) {
            tell!("periscope: hint: {line}");
        }
    }
}

/// What a diagnosis says, a line each.
pub fn words(diagnosis: &Diagnosis) -> Vec<String> {
    match diagnosis {
        Diagnosis::CommandNotFound {
            command,
            missing_launchers,
        } => {
            let mut lines = vec![format!(
                "`{command}` was not found: check its spelling, give its full path, or install it"
            )];
            if !missing_launchers.is_empty() {
                let installs: Vec<&str> = missing_launchers
                    .iter()
                    .filter_map(|l| install_for(l))
                    .collect::<std::collections::BTreeSet<_>>()
                    .into_iter()
                    .collect();
                lines.push(format!(
                    "not on PATH: {} ({})",
                    missing_launchers
                        .iter()
                        .map(|l| format!("`{l}`"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    installs.join("; ")
                ));
            }
            lines
        }
        Diagnosis::ExitedEarly {
            exit_code,
            signal,
            stderr_tail,
        } => {
            let how = how_it_ended(*exit_code, *signal);
            // The error above already quotes the last stderr lines; the hint does not repeat them.
            let next = if stderr_tail.is_empty() {
                " and wrote nothing to stderr: run the command by hand, and check its arguments and environment"
            } else {
                "; its last stderr lines are quoted above: run the command by hand to see all it says"
            };
            vec![format!("the server {how} before it answered{next}")]
        }
        Diagnosis::ExitedAfterReady {
            exit_code,
            signal,
            stderr_tail,
        } => {
            let how = how_it_ended(*exit_code, *signal);
            let mut lines = vec![format!(
                "the server {how} after the connection was ready: reconnect; if it happens again, its stderr says why"
            )];
            lines.extend(stderr_tail.iter().map(|l| format!("stderr: {l}")));
            lines
        }
        Diagnosis::StdoutClosed => vec![
            "the server closed its stdout but kept running: nothing more can come from it; reconnect (Periscope ends the old process)".to_string(),
        ],
        Diagnosis::WrongPath {
            url,
            method,
            status,
            answering,
        } => {
            let head =
                format!("{url} answered {method} with HTTP {status}: it is not an MCP endpoint");
            match answering.first() {
                Some(there) => vec![format!(
                    "{head}; {there} answers on the same server: try --url {there}"
                )],
                None => vec![format!(
                    "{head}, and neither /mcp nor /sse on the same server answers: check the server's documentation for its MCP path"
                )],
            }
        }
        Diagnosis::Tls { url, problem } => vec![tls_words(url, problem)],
        Diagnosis::UnusableChallenge { status } => vec![format!(
            "the server answered HTTP {status} without a WWW-Authenticate Bearer challenge Periscope can sign in with: if it takes a fixed token or key, pass it with --header-from-env 'Authorization=VAR' (or --header)"
        )],
        Diagnosis::WrongContentType { content_type } => vec![format!(
            "the server answered with {}, not JSON or an event stream: the URL is likely a web page rather than the server's MCP endpoint (often …/mcp)",
            if content_type.is_empty() {
                "no content type"
            } else {
                content_type
            }
        )],
        Diagnosis::ProxyNotInherited { names } => vec![format!(
            "{} {} set here, but the server does not inherit {}: pass {} with --env NAME=VALUE, or everything with --inherit-env",
            names.join(", "),
            if names.len() == 1 { "is" } else { "are" },
            if names.len() == 1 { "it" } else { "them" },
            if names.len() == 1 { "it" } else { "them" },
        )],
        Diagnosis::NeedsLegacyEra {
            request,
            legacy_versions,
        } => {
            let what = match request {
                RemovedServerRequest::Elicitation => "elicitation",
                RemovedServerRequest::Sampling => "sampling",
                RemovedServerRequest::Roots => "roots",
            };
            vec![format!(
                "this fails in the 2026-07-28 era because it relies on a server-initiated request ({what}), which that era removed; the server also speaks the legacy era ({}): run again with --era legacy",
                legacy_versions.join(", ")
            )]
        }
    }
}

/// What to install to get a launcher.
/// How a server process ended by itself: its exit status, or its signal.
fn how_it_ended(exit_code: Option<i32>, signal: Option<i32>) -> String {
    match (exit_code, signal) {
        (Some(code), _) => format!("exited with status {code}"),
        (None, Some(signal)) => format!("was killed by signal {signal}"),
        (None, None) => "ended".to_string(),
    }
}

fn install_for(launcher: &str) -> Option<&'static str> {
    match launcher {
        "npx" | "node" => Some("install Node.js for `npx` and `node`"),
        "uvx" => Some("install uv for `uvx`"),
        "python3" => Some("install Python 3 for `python3`"),
        _ => None,
    }
}

fn tls_words(url: &str, problem: &TlsProblem) -> String {
    match problem {
        TlsProblem::WrongName {
            expected,
            presented,
        } => format!(
            "the TLS certificate of {url} is not for {}{}: use a name the certificate has in the URL, or have the certificate reissued",
            expected.as_deref().unwrap_or("this host name"),
            if presented.is_empty() {
                String::new()
            } else {
                format!(" (it names {})", presented.join(", "))
            }
        ),
        TlsProblem::Expired { not_after } => format!(
            "the TLS certificate of {url} has expired{}: the server's certificate must be renewed (check this machine's clock too)",
            not_after
                .map(|t| format!(" (valid until {})", utc_date(t)))
                .unwrap_or_default()
        ),
        TlsProblem::NotYetValid => {
            format!("the TLS certificate of {url} is not valid yet: check this machine's clock")
        }
        TlsProblem::UntrustedIssuer => format!(
            "the TLS certificate of {url} is self-signed or from an authority this machine does not trust: add that authority's certificate to the system's trust store, or use the server's plain http URL if it is on this machine"
        ),
        TlsProblem::Other { detail } => {
            format!("the TLS handshake with {url} failed ({detail})")
        }
    }
}

/// A Unix time as a UTC date (YYYY-MM-DD), from the civil-from-days algorithm: one date is
/// not worth a dependency.
fn utc_date(seconds: u64) -> String {
    let days = (seconds / 86_400) as i64;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_unix_time_reads_as_its_utc_date() {
        assert_eq!(utc_date(0), "1970-01-01");
        assert_eq!(utc_date(951_782_400), "2000-02-29");
        assert_eq!(utc_date(1_795_374_424), "2026-11-22");
    }

    #[test]
    fn a_wrong_path_names_the_path_that_answers() {
        let lines = words(&Diagnosis::WrongPath {
            url: "http://127.0.0.1:1/x".into(),
            method: "POST".into(),
            status: 404,
            answering: vec!["http://127.0.0.1:1/mcp".into()],
        });
        assert_eq!(
            lines,
            [
                "http://127.0.0.1:1/x answered POST with HTTP 404: it is not an MCP endpoint; http://127.0.0.1:1/mcp answers on the same server: try --url http://127.0.0.1:1/mcp"
            ]
        );
    }
}
