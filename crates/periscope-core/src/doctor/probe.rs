//! After a 404 or 405 from the server's URL: do the usual MCP paths of the same origin answer?
//! Only the origin the user gave is asked, without their headers or token, and briefly.

use std::time::Duration;

use reqwest::header::{ACCEPT, CONTENT_TYPE};

use crate::net_guard::{AddressClass, classify_ip, classify_name};

/// How long the whole probe may take.
pub(super) const DEADLINE: Duration = Duration::from_secs(3);

/// The paths tried, with how each is asked: Streamable HTTP takes a POST, the 2024-11-05
/// HTTP+SSE transport opens with a GET of its event stream.
const CANDIDATES: [(&str, Ask); 2] = [("/mcp", Ask::Post), ("/sse", Ask::EventStream)];

#[derive(Clone, Copy)]
enum Ask {
    Post,
    EventStream,
}

/// The candidate URLs on `given`'s origin (other than `given` itself) that answer like an MCP
/// endpoint, within [`DEADLINE`].
pub(super) async fn answering(given: &str) -> Vec<String> {
    let Ok(base) = reqwest::Url::parse(given) else {
        return Vec::new();
    };
    // The probe is Periscope's idea, not the user's: it never asks a cloud metadata service
    // anything, whatever URL the user gave (such a service answers with credentials).
    if is_metadata_service(&base) {
        return Vec::new();
    }
    let Ok(client) = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .connect_timeout(DEADLINE)
        .build()
    else {
        return Vec::new();
    };
    let asks = CANDIDATES.iter().filter_map(|(path, ask)| {
        let url = base.join(path).ok()?;
        (url.path() != base.path()).then(|| {
            let client = client.clone();
            async move {
                answers(&client, url.clone(), *ask)
                    .await
                    .then(|| url.to_string())
            }
        })
    });
    let all = futures_util::future::join_all(asks);
    match tokio::time::timeout(DEADLINE, all).await {
        Ok(found) => found.into_iter().flatten().collect(),
        Err(_) => Vec::new(),
    }
}

/// Whether `url` answers like an endpoint: not 404/405, and in a content type MCP uses (a
/// site that answers every path with its HTML page is no endpoint).
async fn answers(client: &reqwest::Client, url: reqwest::Url, ask: Ask) -> bool {
    let request = match ask {
        // A ping: harmless on any server, and any MCP server answers it (or refuses it in
        // JSON, which says as much).
        Ask::Post => client
            .post(url)
            .header(ACCEPT, "application/json, text/event-stream")
            .header(CONTENT_TYPE, "application/json")
            .body(r#"{"jsonrpc":"2.0","id":0,"method":"ping"}"#),
        Ask::EventStream => client.get(url).header(ACCEPT, "text/event-stream"),
    };
    let Ok(response) = request.send().await else {
        return false;
    };
    let status = response.status().as_u16();
    let content_type = crate::transport::content_type_of(response.headers());
    let mcp_type = content_type
        .as_deref()
        .is_some_and(|t| t.starts_with("application/json") || t.starts_with("text/event-stream"));
    !matches!(status, 404 | 405) && (mcp_type || matches!(status, 401 | 403))
}

/// Whether the URL's host is a cloud metadata service, by its address or its name.
fn is_metadata_service(url: &reqwest::Url) -> bool {
    let class = match url.host() {
        Some(url::Host::Domain(name)) => classify_name(name),
        Some(url::Host::Ipv4(ip)) => Some(classify_ip(ip.into())),
        Some(url::Host::Ipv6(ip)) => Some(classify_ip(ip.into())),
        None => None,
    };
    class == Some(AddressClass::MetadataService)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_metadata_service_is_never_probed() {
        for url in [
            "http://169.254.169.254/periscope-control/mcp",
            "http://metadata.google.internal/x",
            "http://[fd00:ec2::254]/x",
        ] {
            assert!(
                is_metadata_service(&reqwest::Url::parse(url).unwrap()),
                "{url}"
            );
            assert_eq!(answering(url).await, Vec::<String>::new());
        }
        assert!(!is_metadata_service(
            &reqwest::Url::parse("http://127.0.0.1:1/mcp").unwrap()
        ));
    }
}
