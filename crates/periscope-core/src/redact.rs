//! What never reaches a record, an error message or a view in clear: the values of secret
//! headers (by their name, or because the server's entry marks them secret), configured secret
//! values wherever a header carries them, secrets in URL query strings and fragments
//! (`?access_token=…`, `api_key=…`, `sig=…`) and a password in a URL's user info.
//!
//! Only what Periscope writes *about* the traffic is redacted (HTTP exchanges, the record's
//! server description, messages): frames stay the exact bytes that crossed the wire.

/// What a redacted value is replaced with.
pub const REDACTED: &str = "[redacted]";

/// Header names whose values are never recorded, whatever the server's entry says.
pub fn is_secret_header(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    matches!(
        n.as_str(),
        "authorization" | "proxy-authorization" | "cookie" | "set-cookie" | "x-api-key"
    ) || n.contains("token")
        || n.contains("secret")
        || n.contains("api-key")
        || n.contains("apikey")
        || n.contains("password")
}

/// URL query and fragment parameters whose values are never recorded: OAuth tokens and codes,
/// API keys, passwords, signatures of signed URLs (`sig`, `X-Amz-Signature`).
pub fn is_secret_parameter(name: &str) -> bool {
    let n = name.to_ascii_lowercase().replace('-', "_");
    matches!(
        n.as_str(),
        "key"
            | "code"
            | "sig"
            | "auth"
            | "authorization"
            | "pass"
            | "passwd"
            | "pwd"
            | "session_key"
    ) || [
        "token",
        "secret",
        "password",
        "api_key",
        "apikey",
        "signature",
        "credential",
    ]
    .iter()
    .any(|part| n.contains(part))
}

/// Headers as recorded. A value is replaced when its name is secret ([`is_secret_header`]),
/// when it is one of the `configured` secret headers of the server's entry (name, value), or
/// when it contains one of their values (a server echoing an API key back in a response).
pub fn headers<'a>(
    headers: impl IntoIterator<Item = (&'a str, &'a str)>,
    configured: &[(&str, &str)],
) -> Vec<(String, String)> {
    headers
        .into_iter()
        .map(|(name, value)| {
            let secret = is_secret_header(name)
                || configured.iter().any(|(secret_name, secret_value)| {
                    secret_name.eq_ignore_ascii_case(name)
                        || (!secret_value.is_empty() && value.contains(secret_value))
                });
            let value = if secret { REDACTED } else { value };
            (name.to_string(), value.to_string())
        })
        .collect()
}

/// A URL as recorded and shown: the values of secret query and fragment parameters and a
/// password in the user info replaced; everything else kept exactly as written.
pub fn url(url: &str) -> String {
    let (before_fragment, fragment) = match url.split_once('#') {
        Some((b, f)) => (b, Some(f)),
        None => (url, None),
    };
    let (base, query) = match before_fragment.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (before_fragment, None),
    };
    let mut out = user_info(base);
    if let Some(query) = query {
        out.push('?');
        out.push_str(&parameters(query));
    }
    if let Some(fragment) = fragment {
        out.push('#');
        out.push_str(&parameters(fragment));
    }
    out
}

/// Text (an error message) with every `http://` or `https://` URL in it redacted like [`url`].
pub fn urls_in_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = find_url_start(rest) {
        out.push_str(&rest[..start]);
        let tail = &rest[start..];
        let end = tail
            .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | '`' | ')'))
            .unwrap_or(tail.len());
        out.push_str(&url(&tail[..end]));
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

fn find_url_start(text: &str) -> Option<usize> {
    let lower = text.to_ascii_lowercase();
    [lower.find("http://"), lower.find("https://")]
        .into_iter()
        .flatten()
        .min()
}

/// `scheme://user:password@host…` with the password replaced.
fn user_info(base: &str) -> String {
    let Some(scheme_end) = base.find("://") else {
        return base.to_string();
    };
    let authority_start = scheme_end + 3;
    let authority_end = base[authority_start..]
        .find('/')
        .map_or(base.len(), |i| authority_start + i);
    let authority = &base[authority_start..authority_end];
    let Some(at) = authority.rfind('@') else {
        return base.to_string();
    };
    let Some(colon) = authority[..at].find(':') else {
        return base.to_string();
    };
    format!(
        "{}{}:{REDACTED}{}",
        &base[..authority_start],
        &authority[..colon],
        &base[authority_start + at..]
    )
}

/// `a=1&token=x` with each secret parameter's value replaced; names, order, separators and
/// the other values kept as written.
fn parameters(text: &str) -> String {
    text.split('&')
        .map(|pair| match pair.split_once('=') {
            Some((name, value)) if !value.is_empty() && is_secret_parameter(&decoded(name)) => {
                format!("{name}={REDACTED}")
            }
            _ => pair.to_string(),
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// A parameter name as a server reads it (`api%5Fkey` is `api_key`).
fn decoded(name: &str) -> String {
    url::form_urlencoded::parse(name.as_bytes())
        .next()
        .map(|(k, _)| k.into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_secrets_are_redacted_and_the_rest_of_the_url_is_kept() {
        assert_eq!(
            url("https://h.example/mcp?token=abc&x=1&api_key=k1&apikey=k2&key=k3"),
            "https://h.example/mcp?token=[redacted]&x=1&api_key=[redacted]&apikey=[redacted]&key=[redacted]"
        );
        assert_eq!(
            url("https://h/cb?code=c0de&state=s1&access_token=at#id_token=it&expires_in=3"),
            "https://h/cb?code=[redacted]&state=s1&access_token=[redacted]#id_token=[redacted]&expires_in=3"
        );
        assert_eq!(
            url("https://h/blob?sv=2024&sig=abc%3D&X-Amz-Signature=ff&X-Amz-Credential=c"),
            "https://h/blob?sv=2024&sig=[redacted]&X-Amz-Signature=[redacted]&X-Amz-Credential=[redacted]"
        );
        assert_eq!(
            url("http://u?password=p&Secret=s&client_secret=cs&api%5Fkey=enc"),
            "http://u?password=[redacted]&Secret=[redacted]&client_secret=[redacted]&api%5Fkey=[redacted]"
        );
        // Nothing secret: byte for byte the same.
        for plain in [
            "http://127.0.0.1:3000/mcp",
            "http://h/message?sessionId=abc",
            "https://h/p?q=1&&flag&empty=&token=",
            "not a url at all",
        ] {
            assert_eq!(url(plain), plain);
        }
    }

    #[test]
    fn a_password_in_the_user_info_is_redacted() {
        assert_eq!(
            url("https://alice:hunter2@h.example:8443/mcp?x=1"),
            "https://alice:[redacted]@h.example:8443/mcp?x=1"
        );
        assert_eq!(
            url("https://alice@h.example/mcp"),
            "https://alice@h.example/mcp"
        );
    }

    #[test]
    fn urls_inside_an_error_message_are_redacted() {
        let error = "error sending request for url (http://127.0.0.1:9/mcp?access_token=s3cr3t): \
                     connection refused; retried https://h/x?key=k9 too";
        let redacted = urls_in_text(error);
        assert!(
            !redacted.contains("s3cr3t") && !redacted.contains("k9"),
            "{redacted}"
        );
        assert_eq!(
            redacted,
            "error sending request for url (http://127.0.0.1:9/mcp?access_token=[redacted]): \
             connection refused; retried https://h/x?key=[redacted] too"
        );
        assert_eq!(urls_in_text("no url here"), "no url here");
    }

    #[test]
    fn headers_are_redacted_by_name_by_configuration_and_by_value() {
        // The entry marks X-Tenant secret; X-Plain is not.
        let configured = [("X-Tenant", "tenant-secret-42")];
        let recorded = headers(
            [
                ("authorization", "Bearer t0k"),
                ("x-tenant", "tenant-secret-42"),
                ("x-plain", "visible"),
                ("x-echo", "you sent tenant-secret-42"),
                ("x-goog-api-key", "g"),
                ("x-auth-token", "t"),
                ("content-type", "application/json"),
            ],
            &configured,
        );
        let value = |n: &str| {
            recorded
                .iter()
                .find(|(k, _)| k == n)
                .map(|(_, v)| v.as_str())
                .unwrap()
        };
        for secret in [
            "authorization",
            "x-tenant",
            "x-echo",
            "x-goog-api-key",
            "x-auth-token",
        ] {
            assert_eq!(value(secret), REDACTED, "{secret}");
        }
        assert_eq!(value("x-plain"), "visible");
        assert_eq!(value("content-type"), "application/json");
        assert_eq!(recorded.len(), 7);
    }
}
