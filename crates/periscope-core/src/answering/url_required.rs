//! A request refused with -32042 (URLElicitationRequiredError): the web pages its `data` names,
//! which the user must visit before the request is retried. Decided here once, so a host neither
//! compares error numbers nor reads the error's data itself.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::vocabulary::ErrorCode;

/// One page a URL-elicitation-required error asks the user to visit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct UrlRequired {
    /// Empty when the server sent none: its completion cannot be tracked then.
    pub elicitation_id: String,
    pub url: String,
    /// Empty when the server sent none.
    pub message: String,
}

/// For a -32042 error, the URL elicitations its data names (odd entries skipped, never fatal;
/// possibly none); `None` for any other code.
pub fn urls_required(code: i64, data: Option<&Value>) -> Option<Vec<UrlRequired>> {
    if ErrorCode::of(code) != ErrorCode::UrlElicitationRequired {
        return None;
    }
    let entries = data
        .and_then(|d| d.get("elicitations"))
        .and_then(Value::as_array);
    let text = |e: &Value, key: &str| e.get(key).and_then(Value::as_str).unwrap_or("").to_string();
    Some(
        entries
            .into_iter()
            .flatten()
            .filter(|e| e.get("url").is_some_and(Value::is_string))
            .map(|e| UrlRequired {
                elicitation_id: text(e, "elicitationId"),
                url: text(e, "url"),
                message: text(e, "message"),
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::vocabulary::error_code::codes;

    #[test]
    fn a_url_elicitation_required_error_names_the_pages_in_its_data() {
        let data = json!({"elicitations": [
            {"mode": "url", "elicitationId": "e1", "url": "https://example.com/a", "message": "Sign in"},
            {"mode": "url", "url": "https://example.com/b"},
        ]});
        assert_eq!(
            urls_required(codes::URL_ELICITATION_REQUIRED, Some(&data)),
            Some(vec![
                UrlRequired {
                    elicitation_id: "e1".into(),
                    url: "https://example.com/a".into(),
                    message: "Sign in".into(),
                },
                UrlRequired {
                    elicitation_id: String::new(),
                    url: "https://example.com/b".into(),
                    message: String::new(),
                },
            ])
        );
    }

    #[test]
    fn what_cannot_be_read_is_skipped_instead_of_failing() {
        let code = codes::URL_ELICITATION_REQUIRED;
        assert_eq!(urls_required(code, None), Some(vec![]));
        assert_eq!(
            urls_required(code, Some(&json!({"elicitations": "nope"}))),
            Some(vec![])
        );
        let odd = json!({"elicitations": [1, null, {"url": 3}, {"url": "https://ok.test/"}]});
        assert_eq!(
            urls_required(code, Some(&odd)),
            Some(vec![UrlRequired {
                elicitation_id: String::new(),
                url: "https://ok.test/".into(),
                message: String::new(),
            }])
        );
    }

    #[test]
    fn another_error_asks_for_no_page() {
        let data = json!({"elicitations": [{"url": "https://example.com/a"}]});
        assert_eq!(urls_required(codes::INVALID_PARAMS, Some(&data)), None);
    }
}
