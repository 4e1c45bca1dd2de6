//! Which URLs Periscope fetches, or sends to, on a server's say-so.
//!
//! A server hands Periscope URLs: a `resource_metadata` link in a challenge, the authorization
//! server it names, the endpoints in that server's metadata, a legacy `endpoint` event. A
//! hostile one could aim them at the network Periscope runs in (a router page, the cloud
//! metadata service at `169.254.169.254`, an admin port on loopback), and Periscope's requests
//! would reach places the server itself cannot (server-side request forgery). The rules:
//!
//! - `https` anywhere; plain `http` only to a loopback host;
//! - no address of a kind the MCP server is not on itself: loopback, private (RFC 1918),
//!   unique local (`fc00::/7`), link-local (`169.254/16`, `fe80::/10`), shared / CGNAT
//!   (`100.64/10`), cloud metadata services, the unspecified address and reserved ranges. An
//!   IPv4 address written inside IPv6 (`::ffff:a.b.c.d`, NAT64, 6to4) counts as that IPv4
//!   address. A server on `10.0.0.5` may name `10.0.0.6`; a public one may not;
//! - host names are checked by name (`localhost`, `metadata.google.internal`, …) before the
//!   request, and by every address they resolve to when Periscope connects
//!   ([`GuardedResolver`]): a name that resolves to a public address once and to a private one
//!   for the connection (DNS rebinding) is still refused, because the check is on what is
//!   connected to;
//! - the legacy transport's endpoint must be on the event stream's origin;
//! - a bearer token never travels over plain `http` to a host that is not loopback.
//!
//! URLs the user typed (the MCP server's, an identity provider's token endpoint) are theirs to
//! choose: only the scheme rule applies to them.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

/// What kind of network an address is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum AddressClass {
    Public,
    /// `127.0.0.0/8`, `::1`, `localhost`.
    Loopback,
    /// `10/8`, `172.16/12`, `192.168/16` (RFC 1918), and IPv6 site-local / local NAT64.
    Private,
    /// `fc00::/7`.
    UniqueLocal,
    /// `169.254/16`, `fe80::/10`.
    LinkLocal,
    /// `100.64/10` (RFC 6598), carrier-grade NAT.
    SharedCgnat,
    /// A cloud instance's metadata service (`169.254.169.254`, `fd00:ec2::254`,
    /// `metadata.google.internal`, …): it hands out the machine's credentials.
    MetadataService,
    /// `0.0.0.0/8`, `::`: connecting there reaches this machine.
    Unspecified,
    /// Multicast, broadcast, documentation, benchmarking and future-use ranges.
    Reserved,
}

impl fmt::Display for AddressClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AddressClass::Public => "a public address",
            AddressClass::Loopback => "a loopback address",
            AddressClass::Private => "a private network address",
            AddressClass::UniqueLocal => "a unique local address (fc00::/7)",
            AddressClass::LinkLocal => "a link-local address",
            AddressClass::SharedCgnat => "a shared address (100.64.0.0/10, carrier-grade NAT)",
            AddressClass::MetadataService => "a cloud metadata service",
            AddressClass::Unspecified => "the unspecified address (this machine)",
            AddressClass::Reserved => "a reserved address",
        })
    }
}

/// Cloud metadata services by address: AWS, GCP, Azure, OpenStack… (IPv4), AWS ECS task
/// metadata, AWS (IPv6).
const METADATA_V4: [Ipv4Addr; 2] = [
    Ipv4Addr::new(169, 254, 169, 254),
    Ipv4Addr::new(169, 254, 170, 2),
];
const METADATA_V6: Ipv6Addr = Ipv6Addr::new(0xfd00, 0x0ec2, 0, 0, 0, 0, 0, 0x0254);

/// Cloud metadata services by name (they resolve to the addresses above only inside a cloud).
const METADATA_NAMES: &[&str] = &[
    "metadata",
    "metadata.google.internal",
    "metadata.goog",
    "instance-data",
    "instance-data.ec2.internal",
];

pub fn classify_ip(ip: IpAddr) -> AddressClass {
    match ip {
        IpAddr::V4(v4) => classify_v4(v4),
        IpAddr::V6(v6) => classify_v6(v6),
    }
}

fn classify_v4(ip: Ipv4Addr) -> AddressClass {
    use AddressClass::*;
    if METADATA_V4.contains(&ip) {
        return MetadataService;
    }
    let [a, b, c, _] = ip.octets();
    match (a, b, c) {
        (0, _, _) => Unspecified,
        (127, _, _) => Loopback,
        (10, _, _) | (172, 16..=31, _) | (192, 168, _) => Private,
        (100, 64..=127, _) => SharedCgnat,
        (169, 254, _) => LinkLocal,
        // Protocol assignments (192.0.0.192 is Oracle Cloud's metadata service), documentation,
        // benchmarking, multicast, 240/4 and broadcast.
        (192, 0, 0) | (192, 0, 2) | (198, 18..=19, _) | (198, 51, 100) | (203, 0, 113) => Reserved,
        (224..=255, _, _) => Reserved,
        _ => Public,
    }
}

fn classify_v6(ip: Ipv6Addr) -> AddressClass {
    use AddressClass::*;
    if let Some(v4) = embedded_v4(ip) {
        return classify_v4(v4);
    }
    if ip == METADATA_V6 {
        return MetadataService;
    }
    let s = ip.segments();
    match s[0] {
        _ if ip.is_unspecified() => Unspecified,
        _ if ip.is_loopback() => Loopback,
        x if x & 0xfe00 == 0xfc00 => UniqueLocal,
        x if x & 0xffc0 == 0xfe80 => LinkLocal,
        // Site-local (deprecated, still routed inside some networks).
        x if x & 0xffc0 == 0xfec0 => Private,
        x if x & 0xff00 == 0xff00 => Reserved,
        0x2001 if s[1] == 0x0db8 => Reserved,
        // Local-use NAT64 (RFC 8215): whatever the local translator maps it to.
        0x0064 if s[1] == 0xff9b && s[2] == 1 => Private,
        // Discard-only (RFC 6666).
        0x0100 if s[1..4] == [0, 0, 0] => Reserved,
        _ => Public,
    }
}

/// The IPv4 address an IPv6 address stands for: mapped (`::ffff:a.b.c.d`), compatible
/// (`::a.b.c.d`, deprecated), well-known NAT64 (`64:ff9b::a.b.c.d`) and 6to4 (`2002:AABB:CCDD::`).
fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return Some(v4);
    }
    let s = ip.segments();
    let low =
        |hi: u16, lo: u16| Ipv4Addr::new((hi >> 8) as u8, hi as u8, (lo >> 8) as u8, lo as u8);
    match s {
        // `::` and `::1` are themselves, not 0.0.0.0 and 0.0.0.1.
        [0, 0, 0, 0, 0, 0, 0, 0 | 1] => None,
        [0, 0, 0, 0, 0, 0, hi, lo] => Some(low(hi, lo)),
        [0x0064, 0xff9b, 0, 0, 0, 0, hi, lo] => Some(low(hi, lo)),
        [0x2002, hi, lo, ..] => Some(low(hi, lo)),
        _ => None,
    }
}

/// A host name's class when the name alone says it (`localhost`, metadata services); `None`
/// when only resolving it can tell.
pub fn classify_name(host: &str) -> Option<AddressClass> {
    let name = host.trim_end_matches('.').to_ascii_lowercase();
    if name == "localhost" || name.ends_with(".localhost") {
        Some(AddressClass::Loopback)
    } else if METADATA_NAMES.contains(&name.as_str()) {
        Some(AddressClass::MetadataService)
    } else {
        None
    }
}

fn classify_host(host: &url::Host<&str>) -> Option<AddressClass> {
    match host {
        url::Host::Domain(name) => classify_name(name),
        url::Host::Ipv4(ip) => Some(classify_v4(*ip)),
        url::Host::Ipv6(ip) => Some(classify_v6(*ip)),
    }
}

/// Whether a URL's host is loopback by its name or address (no resolving).
pub fn is_loopback(url: &url::Url) -> bool {
    url.host()
        .and_then(|h| classify_host(&h))
        .is_some_and(|c| c == AddressClass::Loopback)
}

/// A target on `class` may be reached for an MCP server on `server` (the classes of its
/// addresses): public targets always, others only where the server is itself.
fn permitted(class: AddressClass, server: &[AddressClass]) -> bool {
    class == AddressClass::Public || server.contains(&class)
}

/// What a refused URL was for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum UrlRole {
    McpServer,
    ResourceMetadata,
    AuthorizationServer,
    AuthorizationServerMetadata,
    AuthorizationEndpoint,
    TokenEndpoint,
    RegistrationEndpoint,
    IdpTokenEndpoint,
    LegacyEndpoint,
}

impl UrlRole {
    /// The user typed this URL (only the scheme rule applies); the others come from servers.
    fn configured(self) -> bool {
        matches!(self, UrlRole::McpServer | UrlRole::IdpTokenEndpoint)
    }
}

impl fmt::Display for UrlRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            UrlRole::McpServer => "MCP server",
            UrlRole::ResourceMetadata => "protected resource metadata URL",
            UrlRole::AuthorizationServer => "authorization server",
            UrlRole::AuthorizationServerMetadata => "authorization server metadata",
            UrlRole::AuthorizationEndpoint => "authorization endpoint",
            UrlRole::TokenEndpoint => "token endpoint",
            UrlRole::RegistrationEndpoint => "registration endpoint",
            UrlRole::IdpTokenEndpoint => "identity provider's token endpoint",
            UrlRole::LegacyEndpoint => "legacy HTTP+SSE endpoint",
        })
    }
}

/// Why a URL (or the document behind it) was refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Refusal {
    NotAUrl {
        error: String,
    },
    /// Not `http` or `https`.
    Scheme {
        scheme: String,
    },
    /// Plain `http` to a host that is not loopback.
    PlainHttp,
    /// The host is (or resolves to) an address the MCP server is not on.
    Address {
        host: String,
        /// The address it resolved to, when it is a name.
        address: Option<String>,
        class: AddressClass,
    },
    /// Not on the origin it must be on.
    CrossOrigin {
        origin: String,
        expected: String,
    },
    /// An authorization server metadata document for another issuer (RFC 8414 §3.3), or none.
    IssuerMismatch {
        document: Option<String>,
        expected: String,
    },
    /// A bearer token would travel in clear.
    BearerOverPlainHttp {
        host: String,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NotAUrl { error } => write!(f, "it is not a URL ({error})"),
            Refusal::Scheme { scheme } => write!(f, "scheme {scheme:?} is not http(s)"),
            Refusal::PlainHttp => f.write_str("plain http is allowed only for loopback hosts"),
            Refusal::Address {
                host,
                address,
                class,
            } => {
                write!(f, "{host} is ")?;
                if let Some(address) = address {
                    write!(f, "{address}, ")?;
                }
                write!(
                    f,
                    "{class}, and the MCP server is not: Periscope does not reach into its own network on a server's say-so"
                )
            }
            Refusal::CrossOrigin { origin, expected } => {
                write!(f, "it is on another origin ({origin}, not {expected})")
            }
            Refusal::IssuerMismatch {
                document: Some(document),
                expected,
            } => write!(
                f,
                "the document's issuer is {document:?}, not {expected:?} (RFC 8414 §3.3): it may be another server's metadata"
            ),
            Refusal::IssuerMismatch {
                document: None,
                expected,
            } => write!(
                f,
                "the document names no issuer, so it cannot be shown to be {expected:?}'s (RFC 8414 §3.3)"
            ),
            Refusal::BearerOverPlainHttp { host } => write!(
                f,
                "a bearer token would cross the network in clear over plain http to {host}: use https"
            ),
        }
    }
}

impl std::error::Error for Refusal {}

/// Longest URL quoted in a refusal: the URL comes from a server and could be anything.
const URL_QUOTE: usize = 300;

/// A refused URL: what it was for, the URL, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct RefusedUrl {
    pub role: UrlRole,
    pub url: String,
    pub refusal: Refusal,
}

impl RefusedUrl {
    pub fn new(role: UrlRole, url: &str, refusal: Refusal) -> RefusedUrl {
        let url = match url.char_indices().nth(URL_QUOTE) {
            Some((cut, _)) => format!("{}…", &url[..cut]),
            None => url.to_string(),
        };
        RefusedUrl { role, url, refusal }
    }
}

impl fmt::Display for RefusedUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "refusing the {} {}: {}",
            self.role, self.url, self.refusal
        )
    }
}

impl std::error::Error for RefusedUrl {}

fn origin(url: &url::Url) -> String {
    url.origin().ascii_serialization()
}

/// The legacy transport's rule: `url` must be on `expected`'s origin (scheme, host, port).
pub fn check_same_origin(
    role: UrlRole,
    url: &url::Url,
    expected: &url::Url,
) -> Result<(), RefusedUrl> {
    if url.origin() == expected.origin() {
        Ok(())
    } else {
        Err(RefusedUrl::new(
            role,
            url.as_str(),
            Refusal::CrossOrigin {
                origin: origin(url),
                expected: origin(expected),
            },
        ))
    }
}

/// Whether a bearer token may be sent to the MCP server at `server_url`: not over plain http
/// to a host that is not loopback.
pub fn check_bearer_target(server_url: &str) -> Result<(), RefusedUrl> {
    match url::Url::parse(server_url) {
        Ok(url) if url.scheme() == "http" && !is_loopback(&url) => Err(RefusedUrl::new(
            UrlRole::McpServer,
            server_url,
            Refusal::BearerOverPlainHttp {
                host: url.host_str().unwrap_or("").to_string(),
            },
        )),
        _ => Ok(()),
    }
}

/// The rules for one MCP server's outgoing requests: where the server is, which hosts the user
/// chose, and the last refusal its resolver made (so the request that failed can say why).
pub struct NetGuard {
    server: Option<url::Url>,
    /// The classes of the MCP server's addresses, resolved once, when first needed.
    place: tokio::sync::OnceCell<Vec<AddressClass>>,
    /// Hosts the user configured (the MCP server's, an IdP's): not filtered.
    configured_hosts: Vec<String>,
    dns_refusal: Mutex<Option<(String, Refusal)>>,
}

impl NetGuard {
    /// A guard for the MCP server at `server_url`; `configured_urls` are other URLs the user
    /// typed, whose hosts are theirs to choose.
    pub fn new(server_url: &str, configured_urls: &[&str]) -> Arc<NetGuard> {
        let server = url::Url::parse(server_url).ok();
        let configured_hosts = configured_urls
            .iter()
            .chain(std::iter::once(&server_url))
            .filter_map(|u| url::Url::parse(u).ok())
            .filter_map(|u| u.host_str().map(str::to_ascii_lowercase))
            .collect();
        Arc::new(NetGuard {
            server,
            place: tokio::sync::OnceCell::new(),
            configured_hosts,
            dns_refusal: Mutex::new(None),
        })
    }

    /// The classes of the MCP server's addresses (empty when it cannot be resolved: then only
    /// public targets are permitted).
    async fn place(&self) -> &[AddressClass] {
        self.place
            .get_or_init(|| async {
                let Some(url) = &self.server else {
                    return Vec::new();
                };
                let Some(host) = url.host() else {
                    return Vec::new();
                };
                if let Some(class) = classify_host(&host) {
                    return vec![class];
                }
                let port = url.port_or_known_default().unwrap_or(443);
                let name = url.host_str().unwrap_or("").to_string();
                let mut classes = Vec::new();
                for addr in tokio::net::lookup_host((name, port))
                    .await
                    .into_iter()
                    .flatten()
                {
                    let class = classify_ip(addr.ip());
                    if !classes.contains(&class) {
                        classes.push(class);
                    }
                }
                classes
            })
            .await
    }

    fn is_configured_host(&self, host: &str) -> bool {
        let host = host.trim_end_matches('.').to_ascii_lowercase();
        self.configured_hosts.contains(&host)
    }

    /// Checks a URL before anything is fetched from it: the scheme, and the host by its name
    /// or literal address (names are checked again, by address, when connecting).
    pub async fn check(&self, role: UrlRole, raw: &str) -> Result<url::Url, RefusedUrl> {
        let refuse = |refusal| RefusedUrl::new(role, raw, refusal);
        let url = url::Url::parse(raw).map_err(|e| {
            refuse(Refusal::NotAUrl {
                error: e.to_string(),
            })
        })?;
        let class = url.host().and_then(|h| classify_host(&h));
        match url.scheme() {
            "https" => {}
            "http" if class == Some(AddressClass::Loopback) => {}
            "http" => return Err(refuse(Refusal::PlainHttp)),
            other => {
                return Err(refuse(Refusal::Scheme {
                    scheme: other.to_string(),
                }));
            }
        }
        if role.configured() {
            return Ok(url);
        }
        if let Some(class) = class
            && !permitted(class, self.place().await)
        {
            return Err(refuse(Refusal::Address {
                host: url.host_str().unwrap_or("").to_string(),
                address: None,
                class,
            }));
        }
        Ok(url)
    }

    /// The refusal the resolver made for `url`'s host, if it was refused there: a failed
    /// request asks, to say why it failed.
    pub fn take_dns_refusal(&self, role: UrlRole, url: &str) -> Option<RefusedUrl> {
        let host = url::Url::parse(url).ok()?.host_str()?.to_ascii_lowercase();
        let mut slot = self.dns_refusal.lock().unwrap_or_else(|p| p.into_inner());
        match slot.take() {
            Some((refused_host, refusal)) if refused_host == host => {
                Some(RefusedUrl::new(role, url, refusal))
            }
            other => {
                *slot = other;
                None
            }
        }
    }

    /// A resolver for reqwest that applies the address rule to what it connects to.
    pub fn resolver(self: &Arc<Self>) -> GuardedResolver {
        GuardedResolver(self.clone())
    }

    /// The addresses of `host` a request may connect to; refused when there are none.
    async fn resolve(
        &self,
        host: &str,
    ) -> Result<Vec<SocketAddr>, Box<dyn std::error::Error + Send + Sync>> {
        let addrs: Vec<SocketAddr> = tokio::net::lookup_host((host, 0)).await?.collect();
        if self.is_configured_host(host) {
            return Ok(addrs);
        }
        let place = self.place().await;
        let (allowed, refused): (Vec<SocketAddr>, Vec<SocketAddr>) = addrs
            .into_iter()
            .partition(|a| permitted(classify_ip(a.ip()), place));
        match refused.first() {
            Some(first) if allowed.is_empty() => {
                let refusal = Refusal::Address {
                    host: host.to_string(),
                    address: Some(first.ip().to_string()),
                    class: classify_ip(first.ip()),
                };
                *self.dns_refusal.lock().unwrap_or_else(|p| p.into_inner()) =
                    Some((host.to_ascii_lowercase(), refusal.clone()));
                Err(Box::new(refusal))
            }
            _ => Ok(allowed),
        }
    }
}

/// reqwest's DNS hook over a [`NetGuard`]: resolves with the system resolver, then keeps only
/// the addresses the guard permits. (Behind an HTTP proxy the proxy resolves names; then only
/// the check before the request applies.)
pub struct GuardedResolver(Arc<NetGuard>);

impl reqwest::dns::Resolve for GuardedResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let guard = self.0.clone();
        let host = name.as_str().to_string();
        Box::pin(async move {
            let addrs = guard.resolve(&host).await?;
            Ok(Box::new(addrs.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use AddressClass::*;

    fn class(ip: &str) -> AddressClass {
        classify_ip(ip.parse().unwrap())
    }

    #[test]
    fn ipv4_ranges_are_classified() {
        assert_eq!(class("8.8.8.8"), Public);
        assert_eq!(class("127.0.0.1"), Loopback);
        assert_eq!(class("127.255.0.9"), Loopback);
        assert_eq!(class("10.1.2.3"), Private);
        assert_eq!(class("172.16.0.1"), Private);
        assert_eq!(class("172.31.255.255"), Private);
        assert_eq!(class("172.32.0.1"), Public);
        assert_eq!(class("192.168.1.1"), Private);
        assert_eq!(class("100.64.0.1"), SharedCgnat);
        assert_eq!(class("100.127.255.255"), SharedCgnat);
        assert_eq!(class("100.128.0.1"), Public);
        assert_eq!(class("169.254.169.254"), MetadataService);
        assert_eq!(class("169.254.170.2"), MetadataService);
        assert_eq!(class("169.254.1.1"), LinkLocal);
        assert_eq!(class("0.0.0.0"), Unspecified);
        assert_eq!(class("192.0.0.192"), Reserved);
        assert_eq!(class("224.0.0.1"), Reserved);
        assert_eq!(class("255.255.255.255"), Reserved);
    }

    #[test]
    fn ipv6_ranges_and_ipv4_written_in_ipv6_are_classified() {
        assert_eq!(class("2606:4700::1111"), Public);
        assert_eq!(class("::1"), Loopback);
        assert_eq!(class("::"), Unspecified);
        assert_eq!(class("fc00::1"), UniqueLocal);
        assert_eq!(class("fd12:3456::1"), UniqueLocal);
        assert_eq!(class("fe80::1"), LinkLocal);
        assert_eq!(class("fd00:ec2::254"), MetadataService);
        assert_eq!(class("ff02::1"), Reserved);
        assert_eq!(class("::ffff:169.254.169.254"), MetadataService);
        assert_eq!(class("::ffff:127.0.0.1"), Loopback);
        assert_eq!(class("::ffff:10.0.0.1"), Private);
        assert_eq!(class("::ffff:8.8.8.8"), Public);
        assert_eq!(class("::10.0.0.1"), Private);
        assert_eq!(class("64:ff9b::a9fe:a9fe"), MetadataService);
        assert_eq!(class("2002:c0a8:0101::1"), Private);
    }

    #[test]
    fn names_that_say_what_they_are_are_classified_without_resolving() {
        assert_eq!(classify_name("localhost"), Some(Loopback));
        assert_eq!(classify_name("app.LOCALHOST."), Some(Loopback));
        assert_eq!(
            classify_name("metadata.google.internal"),
            Some(MetadataService)
        );
        assert_eq!(
            classify_name("Metadata.Google.Internal."),
            Some(MetadataService)
        );
        assert_eq!(classify_name("example.com"), None);
    }

    #[test]
    fn targets_are_permitted_only_where_the_server_is() {
        assert!(permitted(Public, &[]));
        assert!(permitted(Public, &[Loopback]));
        assert!(!permitted(Loopback, &[Public]));
        assert!(permitted(Loopback, &[Loopback]));
        assert!(permitted(Private, &[Private]));
        assert!(!permitted(MetadataService, &[Loopback]));
        assert!(!permitted(LinkLocal, &[Private]));
    }

    fn refusal(server: &str, role: UrlRole, url: &str) -> Option<Refusal> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let guard = NetGuard::new(server, &[]);
        rt.block_on(guard.check(role, url)).err().map(|r| r.refusal)
    }

    #[test]
    fn https_anywhere_and_plain_http_only_to_loopback() {
        let role = UrlRole::TokenEndpoint;
        let public = "https://93.184.215.14/mcp";
        assert_eq!(refusal(public, role, "https://as.example.com/token"), None);
        assert_eq!(
            refusal(public, role, "http://as.example.com/token"),
            Some(Refusal::PlainHttp)
        );
        assert!(matches!(
            refusal(public, role, "javascript:alert(1)"),
            Some(Refusal::Scheme { .. })
        ));
        assert!(matches!(
            refusal(public, role, "not a url"),
            Some(Refusal::NotAUrl { .. })
        ));
        let local = "http://127.0.0.1:9/mcp";
        assert_eq!(refusal(local, role, "http://127.0.0.1:9/token"), None);
        assert_eq!(refusal(local, role, "http://localhost:9/token"), None);
        assert_eq!(refusal(local, role, "http://[::1]:9/token"), None);
    }

    #[test]
    fn internal_addresses_are_refused_unless_the_server_is_on_one() {
        let role = UrlRole::ResourceMetadata;
        let public = "https://93.184.215.14/mcp";
        let local = "http://127.0.0.1:9/mcp";
        for (server, url, class) in [
            (
                local,
                "https://169.254.169.254/latest/meta-data/",
                MetadataService,
            ),
            (local, "https://[::ffff:169.254.169.254]/", MetadataService),
            (
                local,
                "https://metadata.google.internal/computeMetadata/v1/",
                MetadataService,
            ),
            (local, "https://10.0.0.1/x", Private),
            (local, "https://192.168.1.1/x", Private),
            (local, "https://[fe80::1]/x", LinkLocal),
            (local, "https://[fd00::1]/x", UniqueLocal),
            (local, "https://100.64.0.1/x", SharedCgnat),
            (local, "https://0.0.0.0/x", Unspecified),
            (public, "https://127.0.0.1/x", Loopback),
            (public, "https://localhost/x", Loopback),
            (public, "https://2130706433/x", Loopback),
            (public, "https://172.16.0.1/x", Private),
        ] {
            match refusal(server, role, url) {
                Some(Refusal::Address { class: c, .. }) => assert_eq!(c, class, "{url}"),
                other => panic!("{url} for {server}: {other:?}"),
            }
        }
        // A server on a private network may name its neighbours.
        assert_eq!(
            refusal("https://10.0.0.5/mcp", role, "https://10.0.0.6/x"),
            None
        );
        // What the user typed is theirs to choose.
        assert_eq!(
            refusal(public, UrlRole::IdpTokenEndpoint, "https://10.0.0.6/token"),
            None
        );
    }

    #[test]
    fn the_legacy_endpoint_must_share_the_stream_origin() {
        let stream = url::Url::parse("http://127.0.0.1:8000/sse").unwrap();
        let same = stream.join("/messages?session=1").unwrap();
        assert!(check_same_origin(UrlRole::LegacyEndpoint, &same, &stream).is_ok());
        for other in [
            "http://127.0.0.1:8001/messages",
            "https://127.0.0.1:8000/messages",
            "http://localhost:8000/messages",
            "http://evil.example/messages",
        ] {
            let url = url::Url::parse(other).unwrap();
            let refused = check_same_origin(UrlRole::LegacyEndpoint, &url, &stream).unwrap_err();
            assert!(
                matches!(refused.refusal, Refusal::CrossOrigin { .. }),
                "{other}"
            );
        }
    }

    #[test]
    fn bearer_tokens_go_over_plain_http_only_to_loopback() {
        assert!(check_bearer_target("https://mcp.example.com/mcp").is_ok());
        assert!(check_bearer_target("http://127.0.0.1:3000/mcp").is_ok());
        assert!(check_bearer_target("http://localhost:3000/mcp").is_ok());
        let refused = check_bearer_target("http://mcp.example.com/mcp").unwrap_err();
        assert_eq!(
            refused.to_string(),
            "refusing the MCP server http://mcp.example.com/mcp: a bearer token would cross the network in clear over plain http to mcp.example.com: use https"
        );
    }

    #[test]
    fn refusals_read_as_sentences_and_quote_long_urls_shortened() {
        let refused = RefusedUrl::new(
            UrlRole::ResourceMetadata,
            "https://169.254.169.254/latest",
            Refusal::Address {
                host: "169.254.169.254".into(),
                address: None,
                class: MetadataService,
            },
        );
        assert_eq!(
            refused.to_string(),
            "refusing the protected resource metadata URL https://169.254.169.254/latest: 169.254.169.254 is a cloud metadata service, and the MCP server is not: Periscope does not reach into its own network on a server's say-so"
        );
        let long = format!("https://x.example/{}", "a".repeat(1000));
        let refused = RefusedUrl::new(UrlRole::TokenEndpoint, &long, Refusal::PlainHttp);
        assert!(refused.url.chars().count() <= URL_QUOTE + 1);
    }

    #[tokio::test]
    async fn the_resolver_refuses_a_name_that_resolves_only_to_forbidden_addresses() {
        // `localhost` resolves to loopback: refused for a public server, allowed for a local one.
        let public = NetGuard::new("https://93.184.215.14/mcp", &[]);
        let err = public.resolve("localhost").await.unwrap_err();
        assert!(err.to_string().contains("a loopback address"), "{err}");
        let refused = public
            .take_dns_refusal(UrlRole::TokenEndpoint, "https://localhost:8443/token")
            .expect("the refusal is kept for the request that failed");
        assert!(matches!(
            refused.refusal,
            Refusal::Address {
                class: Loopback,
                ..
            }
        ));
        let local = NetGuard::new("http://127.0.0.1:9/mcp", &[]);
        assert!(!local.resolve("localhost").await.unwrap().is_empty());
        // A host the user configured is not filtered.
        let configured = NetGuard::new("https://93.184.215.14/mcp", &["https://localhost/idp"]);
        assert!(!configured.resolve("localhost").await.unwrap().is_empty());
    }
}
