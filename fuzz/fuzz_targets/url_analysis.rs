//! URL-consent analysis (`answering::url_analysis::analyze_url`) of any URL a server may ask the
//! user to open, against any server host: no panic, only http(s) is ever openable, a URL that
//! is not openable always says why, and the warnings come once each, most severe first.
//!
//! The input (lossy UTF-8): the server's host on the first line (empty: a stdio server, none),
//! the URL after it (which may hold more line breaks).
#![no_main]

use libfuzzer_sys::fuzz_target;
use periscope_core::answering::url_analysis::{UrlWarningKind, analyze_url};

/// The order the warnings are shown in (`severity` in url_analysis.rs).
const ORDER: &[UrlWarningKind] = &[
    UrlWarningKind::Unparseable,
    UrlWarningKind::UnsupportedScheme,
    UrlWarningKind::Userinfo,
    UrlWarningKind::Punycode,
    UrlWarningKind::MixedScript,
    UrlWarningKind::InsecureHttp,
    UrlWarningKind::IpHost,
    UrlWarningKind::HostDiffers,
    UrlWarningKind::Encoded,
    UrlWarningKind::Long,
];

fn rank(kind: UrlWarningKind) -> usize {
    ORDER
        .iter()
        .position(|k| *k == kind)
        .expect("every kind is ranked")
}

fuzz_target!(|bytes: &[u8]| {
    let text = String::from_utf8_lossy(bytes);
    let (server_host, raw) = text.split_once('\n').unwrap_or(("", &text));
    let server_host = (!server_host.is_empty()).then_some(server_host);
    let analysis = analyze_url(raw, server_host);
    assert_eq!(analysis.raw, raw);
    let parses = url::Url::parse(raw).is_ok();
    let kinds: Vec<UrlWarningKind> = analysis.warnings.iter().map(|w| w.kind).collect();
    assert_eq!(kinds.contains(&UrlWarningKind::Unparseable), !parses);
    if analysis.openable {
        assert!(parses);
        assert!(matches!(analysis.scheme.as_str(), "http" | "https"));
        assert!(
            !analysis.host_ascii.is_empty(),
            "an openable URL without a host"
        );
        assert!(analysis.host_ascii.is_ascii());
    } else {
        assert!(
            kinds.contains(&UrlWarningKind::Unparseable)
                || kinds.contains(&UrlWarningKind::UnsupportedScheme),
            "not openable, and no warning says why: {kinds:?}"
        );
    }
    let ranks: Vec<usize> = kinds.iter().map(|k| rank(*k)).collect();
    assert!(
        ranks.windows(2).all(|w| w[0] < w[1]),
        "warnings out of order or repeated: {kinds:?}"
    );
    assert!(analysis.warnings.iter().all(|w| !w.message.is_empty()));
});
