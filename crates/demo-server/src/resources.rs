//! The demo server's resources: 25 text resources, one PNG blob, the
//! calculator app's page (`ui://`, see [`crate::app`]), the
//! `demo://items/{category}/{id}` template and the toggleable bonus resource.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use rmcp::{
    ErrorData as McpError,
    model::{ReadResourceResult, Resource, ResourceContents, ResourceTemplate},
};
use serde_json::json;

use crate::{app, media};

/// Number of items in one `resources/list` page.
pub const PAGE_SIZE: usize = 10;
/// Number of `demo://text/N` resources.
pub const TEXT_RESOURCE_COUNT: usize = 25;
/// URI of the PNG blob resource.
pub const LOGO_URI: &str = "demo://blob/logo.png";
/// URI of the resource that `trigger_list_changed` toggles.
pub const BONUS_URI: &str = "demo://bonus";
/// The single resource template.
pub const ITEM_TEMPLATE: &str = "demo://items/{category}/{id}";
/// Values offered when completing the template's `category` variable.
pub const CATEGORIES: [&str; 5] = ["books", "music", "movies", "games", "garden"];

const TEXT_PREFIX: &str = "demo://text/";
const ITEM_PREFIX: &str = "demo://items/";
const CURSOR_PREFIX: &str = "periscope-demo-resources:";

/// URI of the Nth text resource (1-based).
pub fn text_uri(n: usize) -> String {
    format!("{TEXT_PREFIX}{n}")
}

/// Contents of the Nth text resource (1-based).
pub fn text_contents(n: usize) -> String {
    format!("This is text resource {n}.")
}

/// Every resource currently listed, in listing order.
pub fn all(bonus: bool) -> Vec<Resource> {
    let mut resources: Vec<Resource> = (1..=TEXT_RESOURCE_COUNT)
        .map(|n| {
            Resource::new(text_uri(n), format!("Text resource {n}"))
                .with_title(format!("Text resource #{n}"))
                .with_description(format!("Plain-text demo resource number {n}."))
                .with_mime_type("text/plain")
                .with_size(text_contents(n).len() as u64)
        })
        .collect();
    resources.push(
        Resource::new(LOGO_URI, "logo.png")
            .with_title("Periscope logo")
            .with_description("A 16x16 PNG image, served as a base64 blob.")
            .with_mime_type("image/png")
            .with_size(media::png_bytes().len() as u64),
    );
    resources.push(app::resource());
    if bonus {
        resources.push(bonus_resource());
    }
    resources
}

fn bonus_resource() -> Resource {
    Resource::new(BONUS_URI, "Bonus resource")
        .with_title("Bonus resource")
        .with_description("Appears and disappears when the trigger_list_changed tool is called.")
        .with_mime_type("text/plain")
}

/// One page of `items` starting at `cursor`, plus the cursor of the next page.
///
/// Cursors are opaque strings; an unknown or out-of-range cursor is an
/// invalid-params error.
pub fn page<T>(items: Vec<T>, cursor: Option<&str>) -> Result<(Vec<T>, Option<String>), McpError> {
    let offset = match cursor {
        None => 0,
        Some(cursor) => decode_cursor(cursor)
            .filter(|offset| *offset < items.len())
            .ok_or_else(|| {
                McpError::invalid_params(
                    format!("invalid cursor: {cursor}"),
                    Some(json!({ "cursor": cursor })),
                )
            })?,
    };
    let end = (offset + PAGE_SIZE).min(items.len());
    let next = (end < items.len()).then(|| encode_cursor(end));
    let page = items.into_iter().skip(offset).take(end - offset).collect();
    Ok((page, next))
}

fn encode_cursor(offset: usize) -> String {
    URL_SAFE_NO_PAD.encode(format!("{CURSOR_PREFIX}{offset}"))
}

fn decode_cursor(cursor: &str) -> Option<usize> {
    let bytes = URL_SAFE_NO_PAD.decode(cursor).ok()?;
    let text = String::from_utf8(bytes).ok()?;
    text.strip_prefix(CURSOR_PREFIX)?.parse().ok()
}

/// The resource templates.
pub fn templates() -> Vec<ResourceTemplate> {
    vec![
        ResourceTemplate::new(ITEM_TEMPLATE, "Item")
            .with_title("Catalogue item")
            .with_description(
                "An item of a category, e.g. demo://items/books/42. The category \
                 variable supports completion.",
            )
            .with_mime_type("text/plain"),
    ]
}

/// Splits `demo://items/{category}/{id}` into its two variables.
fn parse_item_uri(uri: &str) -> Option<(&str, &str)> {
    let rest = uri.strip_prefix(ITEM_PREFIX)?;
    let (category, id) = rest.split_once('/')?;
    (!category.is_empty() && !id.is_empty() && !id.contains('/')).then_some((category, id))
}

fn parse_text_uri(uri: &str) -> Option<usize> {
    let n = uri.strip_prefix(TEXT_PREFIX)?;
    if n.starts_with('0') || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    n.parse()
        .ok()
        .filter(|n| (1..=TEXT_RESOURCE_COUNT).contains(n))
}

/// Whether `uri` names something `read` can serve.
pub fn exists(uri: &str, bonus: bool) -> bool {
    parse_text_uri(uri).is_some()
        || uri == LOGO_URI
        || uri == app::CALCULATOR_URI
        || (bonus && uri == BONUS_URI)
        || parse_item_uri(uri).is_some()
}

/// The JSON-RPC error for an unknown resource (-32002).
pub fn not_found(uri: &str) -> McpError {
    McpError::resource_not_found(
        format!("resource not found: {uri}"),
        Some(json!({ "uri": uri })),
    )
}

/// Reads `uri`.
pub fn read(uri: &str, bonus: bool) -> Result<ReadResourceResult, McpError> {
    let contents = if let Some(n) = parse_text_uri(uri) {
        ResourceContents::text(text_contents(n), uri)
    } else if uri == LOGO_URI {
        ResourceContents::blob(media::png_base64(), uri).with_mime_type("image/png")
    } else if uri == app::CALCULATOR_URI {
        app::contents()
    } else if bonus && uri == BONUS_URI {
        ResourceContents::text("You found the bonus resource!", uri)
    } else if let Some((category, id)) = parse_item_uri(uri) {
        ResourceContents::text(format!("Item {id} in {category}"), uri)
    } else {
        return Err(not_found(uri));
    };
    Ok(ReadResourceResult::new(vec![contents]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pagination_walks_every_resource() {
        let mut cursor = None;
        let mut seen = Vec::new();
        let mut pages = 0;
        loop {
            let (page, next) = page(all(false), cursor.as_deref()).unwrap();
            assert!(page.len() <= PAGE_SIZE);
            seen.extend(page.into_iter().map(|r| r.uri));
            pages += 1;
            match next {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        assert_eq!(pages, 3);
        assert_eq!(seen.len(), TEXT_RESOURCE_COUNT + 2);
        assert_eq!(seen[0], "demo://text/1");
        assert_eq!(seen[25], LOGO_URI);
        assert_eq!(seen[26], app::CALCULATOR_URI);
    }

    #[test]
    fn bad_cursor_is_invalid_params() {
        let error = page(all(false), Some("nope")).unwrap_err();
        assert_eq!(error.code, rmcp::model::ErrorCode::INVALID_PARAMS);
    }

    #[test]
    fn reads_template_and_rejects_unknown() {
        let result = read("demo://items/books/42", false).unwrap();
        let value = serde_json::to_value(&result.contents[0]).unwrap();
        assert_eq!(value["text"], "Item 42 in books");
        assert!(read("demo://text/26", false).is_err());
        assert!(read("demo://text/01", false).is_err());
        assert!(read(BONUS_URI, false).is_err());
        assert!(read(BONUS_URI, true).is_ok());
        assert_eq!(
            read("demo://nope", false).unwrap_err().code,
            rmcp::model::ErrorCode::RESOURCE_NOT_FOUND
        );
    }
}
