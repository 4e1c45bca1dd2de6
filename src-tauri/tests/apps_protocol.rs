//! The `periscope-app` scheme's handler, driven directly (the test binary has no webview): a
//! live view's page is served with exactly its CSP header, and nothing else is served.

use std::sync::Arc;

use periscope_app::apps::protocol::{MAIN_WEBVIEW, respond};
use periscope_app::apps::{Page, Pages};
use periscope_core::apps::csp;
use tauri::http::{Request, StatusCode, header};

const TOKEN: &str = "0123456789abcdef0123456789abcdef";

fn pages() -> Pages {
    let pages = Pages::default();
    pages.insert(
        TOKEN.into(),
        Page {
            html: Arc::from("<p data-testid=\"x\">app</p>"),
            csp: csp::build(None).header,
        },
    );
    pages
}

fn get(uri: &str) -> Request<Vec<u8>> {
    Request::builder().uri(uri).body(Vec::new()).unwrap()
}

#[test]
fn an_unknown_token_gets_404() {
    let pages = pages();
    let other = "ffffffffffffffffffffffffffffffff";
    let response = respond(
        &pages,
        MAIN_WEBVIEW,
        &get(&format!("periscope-app://{other}/")),
    );
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    assert!(
        response
            .headers()
            .get(header::CONTENT_SECURITY_POLICY)
            .is_none()
    );
    // A freed token is unknown from then on.
    pages.remove(TOKEN);
    let response = respond(
        &pages,
        MAIN_WEBVIEW,
        &get(&format!("periscope-app://{TOKEN}/")),
    );
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
}

#[test]
fn a_live_view_is_served_with_exactly_its_csp_header() {
    let response = respond(
        &pages(),
        MAIN_WEBVIEW,
        &get(&format!("periscope-app://{TOKEN}/")),
    );
    assert_eq!(response.status(), StatusCode::OK);
    let h = response.headers();
    assert_eq!(h[header::CONTENT_SECURITY_POLICY], csp::DEFAULT_CSP);
    assert_eq!(h.get_all(header::CONTENT_SECURITY_POLICY).iter().count(), 1);
    assert_eq!(h[header::CONTENT_TYPE], "text/html;charset=utf-8");
    assert_eq!(h[header::CACHE_CONTROL], "no-store");
    assert_eq!(h[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
    assert_eq!(response.body(), b"<p data-testid=\"x\">app</p>");
}

#[test]
fn other_paths_methods_and_webviews_get_404() {
    let pages = pages();
    for uri in [
        format!("periscope-app://{TOKEN}/index.html"),
        format!("periscope-app://{TOKEN}/?x=1"),
        format!("periscope-app://{TOKEN}/../"),
        format!("http://{TOKEN}/"),
    ] {
        let response = respond(&pages, MAIN_WEBVIEW, &get(&uri));
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{uri}");
    }
    let post = Request::builder()
        .method("POST")
        .uri(format!("periscope-app://{TOKEN}/"))
        .body(Vec::new())
        .unwrap();
    assert_eq!(
        respond(&pages, MAIN_WEBVIEW, &post).status(),
        StatusCode::NOT_FOUND
    );
    let from_elsewhere = respond(&pages, "other", &get(&format!("periscope-app://{TOKEN}/")));
    assert_eq!(from_elsewhere.status(), StatusCode::NOT_FOUND);
}
