//! What an HTTP exchange ran into, typed: the transport's errors carry it beside their words,
//! so a host can say what to do next (`doctor.rs`) without reading the words back.

pub use crate::vocabulary::transport_fault::TlsProblem;

/// Something an HTTP server did (or a TLS handshake ran into) that the transport could not use.
#[derive(Debug, Clone, PartialEq)]
pub enum HttpProblem {
    /// The server answered `method` to `url` with `status` (e.g. 404 to the first POST, or to
    /// the legacy transport's GET after it).
    Status {
        method: String,
        url: String,
        status: u16,
        content_type: Option<String>,
    },
    /// A success whose body is of a content type the transport does not take (a web page's
    /// HTML, plain text…).
    ContentType { content_type: String },
    /// The TLS handshake failed.
    Tls(TlsProblem),
    /// 401/403 that no sign-in got past (none was possible, or it failed): `challenge` is what
    /// the server's `WWW-Authenticate` asked for (empty when it had none Periscope can read).
    Unauthorized { challenge: crate::auth::Challenge },
}

/// A response's content type, lowercased, as it came (`None` without the header).
pub fn content_type_of(headers: &reqwest::header::HeaderMap) -> Option<String> {
    headers
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_ascii_lowercase)
}

/// The TLS problem behind a failed request, if that is why it failed: the rustls error is
/// deep in reqwest's chain of sources (hyper, then an `io::Error` wrapping an `io::Error`
/// wrapping it).
pub(crate) fn tls_problem(error: &(dyn std::error::Error + 'static)) -> Option<TlsProblem> {
    let mut next = Some(error);
    while let Some(e) = next {
        if let Some(tls) = e.downcast_ref::<rustls::Error>() {
            return Some(from_rustls(tls));
        }
        // `io::Error::source` skips the error it wraps, so step into it by hand.
        next = match e
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
        {
            Some(inner) => Some(inner as &(dyn std::error::Error + 'static)),
            None => e.source(),
        };
    }
    None
}

fn from_rustls(error: &rustls::Error) -> TlsProblem {
    use rustls::CertificateError as C;
    match error {
        rustls::Error::InvalidCertificate(cert) => match cert {
            C::NotValidForName => TlsProblem::WrongName {
                expected: None,
                presented: Vec::new(),
            },
            C::NotValidForNameContext {
                expected,
                presented,
            } => TlsProblem::WrongName {
                expected: Some(server_name(expected)),
                presented: presented.clone(),
            },
            C::Expired => TlsProblem::Expired { not_after: None },
            C::ExpiredContext { not_after, .. } => TlsProblem::Expired {
                not_after: Some(not_after.as_secs()),
            },
            C::NotValidYet | C::NotValidYetContext { .. } => TlsProblem::NotYetValid,
            C::UnknownIssuer | C::BadSignature => TlsProblem::UntrustedIssuer,
            other => TlsProblem::Other {
                detail: format!("{other:?}"),
            },
        },
        other => TlsProblem::Other {
            detail: other.to_string(),
        },
    }
}

fn server_name(name: &rustls::pki_types::ServerName<'_>) -> String {
    match name {
        rustls::pki_types::ServerName::DnsName(dns) => dns.as_ref().to_string(),
        rustls::pki_types::ServerName::IpAddress(ip) => std::net::IpAddr::from(*ip).to_string(),
        other => format!("{other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rustls_error_inside_an_io_error_is_found_and_named() {
        // As hyper-rustls hands it on: an io::Error around tokio-rustls's io::Error.
        let io = std::io::Error::other(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer),
        ));
        assert_eq!(tls_problem(&io), Some(TlsProblem::UntrustedIssuer));
        let name =
            rustls::Error::InvalidCertificate(rustls::CertificateError::NotValidForNameContext {
                expected: rustls::pki_types::ServerName::try_from("localhost").unwrap(),
                presented: vec!["DnsName(\"other.test\")".into()],
            });
        assert_eq!(
            tls_problem(&name),
            Some(TlsProblem::WrongName {
                expected: Some("localhost".into()),
                presented: vec!["DnsName(\"other.test\")".into()],
            })
        );
        let plain = std::io::Error::other("connection refused");
        assert_eq!(tls_problem(&plain), None);
    }
}
