//! Which URLs the sign-in talks to: https anywhere, plain http only for loopback hosts.

fn is_loopback(url: &url::Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(d)) => {
            d.eq_ignore_ascii_case("localhost") || d.ends_with(".localhost")
        }
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

/// https anywhere, http only for loopback: the rule for every authorization endpoint.
pub(super) fn check_endpoint(what: &str, raw: &str) -> Result<url::Url, String> {
    let url = url::Url::parse(raw).map_err(|e| format!("the {what} {raw:?} is not a URL: {e}"))?;
    match url.scheme() {
        "https" => Ok(url),
        "http" if is_loopback(&url) => Ok(url),
        "http" => Err(format!(
            "refusing the {what} {raw}: plain http is allowed only for loopback hosts"
        )),
        other => Err(format!(
            "refusing the {what} {raw}: scheme {other:?} is not http(s)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_must_be_https_or_loopback_http() {
        assert!(check_endpoint("x", "https://as.example.com/token").is_ok());
        assert!(check_endpoint("x", "http://127.0.0.1:9/token").is_ok());
        assert!(check_endpoint("x", "http://localhost:9/token").is_ok());
        assert!(check_endpoint("x", "http://[::1]:9/token").is_ok());
        let refused = check_endpoint("x", "http://as.example.com/token").unwrap_err();
        assert!(refused.contains("only for loopback"), "{refused}");
        assert!(check_endpoint("x", "javascript:alert(1)").is_err());
    }
}
