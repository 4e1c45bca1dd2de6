//! The `periscope-app` URI scheme: `periscope-app://<token>/` serves a live view's page to the
//! main window only, with its content security policy as a header (the frame's only policy:
//! the page's own `<meta>` can narrow it, never widen it). Each view has its own 128-bit
//! token, so its own origin; anything else (an unknown or freed token, another path, another
//! method, another webview) is a 404. docs/apps.md, design in docs/security.md.

use tauri::http::{Method, Request, Response, StatusCode, header};

use super::Pages;

/// The scheme's name (the main page's CSP allows frames of it: tauri.conf.json).
pub const SCHEME: &str = "periscope-app";
/// The one webview that may load app pages.
pub const MAIN_WEBVIEW: &str = "main";

fn not_found() -> Response<Vec<u8>> {
    Response::builder()
        .status(StatusCode::NOT_FOUND)
        .header(header::CONTENT_TYPE, "text/plain;charset=utf-8")
        .header(header::CACHE_CONTROL, "no-store")
        .body(b"not found".to_vec())
        .expect("a static response")
}

/// The answer to one request of the scheme, from `webview` (its label).
pub fn respond(pages: &Pages, webview: &str, request: &Request<Vec<u8>>) -> Response<Vec<u8>> {
    if webview != MAIN_WEBVIEW || request.method() != Method::GET {
        return not_found();
    }
    let uri = request.uri();
    if uri.scheme_str() != Some(SCHEME) || !matches!(uri.path(), "/" | "") || uri.query().is_some()
    {
        return not_found();
    }
    let Some(page) = uri.host().and_then(|token| pages.get(token)) else {
        return not_found();
    };
    Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, "text/html;charset=utf-8")
        .header(header::CONTENT_SECURITY_POLICY, page.csp.as_str())
        .header(header::CACHE_CONTROL, "no-store")
        .header(header::X_CONTENT_TYPE_OPTIONS, "nosniff")
        .body(page.html.as_bytes().to_vec())
        .unwrap_or_else(|_| not_found())
}

/// Registers the scheme on `builder`, reading the views' pages from the managed
/// [`McpApps`](super::McpApps).
pub fn register<R: tauri::Runtime>(builder: tauri::Builder<R>) -> tauri::Builder<R> {
    builder.register_asynchronous_uri_scheme_protocol(SCHEME, |ctx, request, responder| {
        use tauri::Manager;
        let apps = ctx.app_handle().state::<super::McpApps>();
        responder.respond(respond(&apps.pages, ctx.webview_label(), &request));
    })
}
