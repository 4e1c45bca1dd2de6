//! Typed helpers over [`Session::request`] for the server features every host uses. Results
//! stay JSON values: an inspector shows what the server sent, including fields it does not know.

use crate::vocabulary::breach::Breach;
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use tokio::sync::mpsc::Sender;

use crate::cache_hint::CacheHint;
use crate::event::Progress;
use crate::session::{CallOptions, DuplicateCallId, RequestError, Session, Timing};
use crate::vocabulary::method::names;

/// One page of a paginated list: its items and the opaque cursor of the next page, if any.
/// Cursors are the server's: passed back as they came, never parsed and never persisted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ListPage {
    pub items: Vec<Value>,
    pub next_cursor: Option<String>,
    /// Modern era: how long the page stays fresh and who may reuse it; whether it came from
    /// the cache.
    pub cache: Option<CacheHint>,
}

/// A resource read's result as the server sent it, with its caching hints (the app sends the
/// UI its reading, `ResourceReadView`, instead).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResourceRead {
    pub result: Value,
    pub cache: Option<CacheHint>,
}

/// A whole list (every page), with the caching hints of its pages as one
/// ([`CacheHint::of_pages`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Listed {
    pub items: Vec<Value>,
    pub cache: Option<CacheHint>,
}

/// What a `completion/complete` request completes: a prompt's argument or a resource
/// template's variable.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "type")]
pub enum CompletionRef {
    #[serde(rename = "ref/prompt")]
    Prompt { name: String },
    #[serde(rename = "ref/resource")]
    Resource { uri: String },
}

/// The suggestions a server gave for one argument.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Completion {
    pub values: Vec<String>,
    /// How many values the server has in all, when it said.
    pub total: Option<u64>,
    pub has_more: bool,
}

/// A level for `logging/setLevel`: the RFC 5424 severities, as the spec names them, least
/// severe first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "lowercase")]
pub enum LogLevel {
    Debug,
    Info,
    Notice,
    Warning,
    Error,
    Critical,
    Alert,
    Emergency,
}

impl LogLevel {
    /// Every level, least severe first.
    pub const ALL: [LogLevel; 8] = [
        LogLevel::Debug,
        LogLevel::Info,
        LogLevel::Notice,
        LogLevel::Warning,
        LogLevel::Error,
        LogLevel::Critical,
        LogLevel::Alert,
        LogLevel::Emergency,
    ];

    /// The word the protocol uses.
    pub fn as_str(self) -> &'static str {
        match self {
            LogLevel::Debug => "debug",
            LogLevel::Info => "info",
            LogLevel::Notice => "notice",
            LogLevel::Warning => "warning",
            LogLevel::Error => "error",
            LogLevel::Critical => "critical",
            LogLevel::Alert => "alert",
            LogLevel::Emergency => "emergency",
        }
    }
}

impl fmt::Display for LogLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for LogLevel {
    type Err = String;

    /// Reads a protocol word; the error names the levels there are.
    fn from_str(word: &str) -> Result<LogLevel, String> {
        LogLevel::ALL
            .into_iter()
            .find(|level| level.as_str() == word)
            .ok_or_else(|| {
                let all: Vec<&str> = LogLevel::ALL.iter().map(|l| l.as_str()).collect();
                format!("{word:?} is not a log level (one of {})", all.join(", "))
            })
    }
}

/// A list can be paged at most this many times; a server that never stops paging is a bug.
const MAX_PAGES: usize = 1000;

impl Session {
    /// Lists every item of a paginated list method (`tools/list` → `tools`), following
    /// `nextCursor` until the server stops.
    pub async fn list_all(&self, method: &str, key: &str) -> Result<Vec<Value>, RequestError> {
        self.list_all_cached(method, key)
            .await
            .map(|listed| listed.items)
    }

    /// Like [`Session::list_all`], with the list's caching hints.
    pub async fn list_all_cached(&self, method: &str, key: &str) -> Result<Listed, RequestError> {
        let mut items = Vec::new();
        let mut hints = Vec::new();
        let mut cursor: Option<Value> = None;
        let mut seen_cursors = Vec::new();
        for _ in 0..MAX_PAGES {
            let params = cursor.as_ref().map(|c| json!({"cursor": c}));
            let (result, reused) = self
                .request_cached(method, params, CallOptions::default())
                .await?;
            hints.push(CacheHint::of(&result, reused));
            let page = result
                .get(key)
                .and_then(Value::as_array)
                .ok_or_else(|| no_array(method, key))?;
            items.extend(page.iter().cloned());
            match result.get("nextCursor") {
                Some(next) if !next.is_null() => {
                    if seen_cursors.contains(next) {
                        return Err(RequestError::Protocol {
                            method: method.into(),
                            breach: Breach::CursorRepeats {
                                cursor: next.to_string(),
                            },
                        });
                    }
                    seen_cursors.push(next.clone());
                    cursor = Some(next.clone());
                }
                _ => {
                    return Ok(Listed {
                        items,
                        cache: CacheHint::of_pages(&hints),
                    });
                }
            }
        }
        Err(RequestError::Protocol {
            method: method.into(),
            breach: Breach::TooManyPages {
                pages: MAX_PAGES as u64,
            },
        })
    }

    /// Lists one page of a paginated list method: the first page without a cursor, the next
    /// with the `next_cursor` of the page before. An empty-string or null `nextCursor` ends it.
    pub async fn list_page(
        &self,
        method: &str,
        key: &str,
        cursor: Option<&str>,
    ) -> Result<ListPage, RequestError> {
        let params = cursor.map(|c| json!({"cursor": c}));
        let (result, reused) = self
            .request_cached(method, params, CallOptions::default())
            .await?;
        let items = result
            .get(key)
            .and_then(Value::as_array)
            .ok_or_else(|| no_array(method, key))?
            .clone();
        let next_cursor = match result.get("nextCursor") {
            None | Some(Value::Null) => None,
            Some(Value::String(c)) => Some(c.clone()),
            Some(other) => {
                return Err(RequestError::Protocol {
                    method: method.into(),
                    breach: Breach::CursorNotString {
                        cursor: other.to_string(),
                    },
                });
            }
        };
        if next_cursor.is_some() && next_cursor.as_deref() == cursor {
            return Err(RequestError::Protocol {
                method: method.into(),
                breach: Breach::CursorRepeats {
                    cursor: Value::from(cursor.unwrap_or_default()).to_string(),
                },
            });
        }
        Ok(ListPage {
            items,
            next_cursor,
            cache: CacheHint::of(&result, reused),
        })
    }

    /// Asks the server to complete one argument (`completion/complete`). `context` holds the
    /// values of the other arguments already filled in.
    pub async fn complete(
        &self,
        reference: &CompletionRef,
        argument_name: &str,
        value: &str,
        context: Option<Map<String, Value>>,
    ) -> Result<Completion, RequestError> {
        let mut params = json!({
            "ref": reference,
            "argument": {"name": argument_name, "value": value},
        });
        if let Some(arguments) = context.filter(|c| !c.is_empty()) {
            params["context"] = json!({"arguments": arguments});
        }
        let result = self
            .request(
                names::COMPLETION_COMPLETE,
                Some(params),
                CallOptions::default(),
            )
            .await?;
        let protocol = |breach: Breach| RequestError::Protocol {
            method: names::COMPLETION_COMPLETE.into(),
            breach,
        };
        let completion = result.get("completion").ok_or_else(|| {
            protocol(Breach::MissingMember {
                member: "completion".into(),
                expected: "object".into(),
            })
        })?;
        let values = completion
            .get("values")
            .and_then(Value::as_array)
            .ok_or_else(|| {
                protocol(Breach::MissingMember {
                    member: "completion.values".into(),
                    expected: "array".into(),
                })
            })?
            .iter()
            .map(|v| {
                v.as_str().map(str::to_string).ok_or_else(|| {
                    protocol(Breach::WrongItem {
                        member: "completion.values".into(),
                        expected: "string".into(),
                    })
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Completion {
            values,
            total: completion.get("total").and_then(Value::as_u64),
            has_more: completion.get("hasMore").and_then(Value::as_bool) == Some(true),
        })
    }

    /// `resources/subscribe`: the server sends `notifications/resources/updated` for the URI.
    /// In the modern era, which removed it, the URI joins the listen stream's filter instead
    /// (the stream is re-opened with it); an error if the server leaves it out.
    pub async fn subscribe_resource(&self, uri: &str) -> Result<(), RequestError> {
        if self.era() == Some(crate::era::Era::Modern) {
            let mut filter = self.listen_filter();
            filter.resource_subscriptions.insert(uri.to_string());
            let acknowledged = self.listen(filter).await?;
            if !acknowledged.resource_subscriptions.contains(uri) {
                return Err(RequestError::Transport {
                    method: names::SUBSCRIPTIONS_LISTEN.into(),
                    reason: format!(
                        "the server left {uri} out of its acknowledgement: it does not send updates for it"
                    ),
                    problem: None,
                });
            }
            return Ok(());
        }
        self.request(
            names::RESOURCES_SUBSCRIBE,
            Some(json!({"uri": uri})),
            CallOptions::default(),
        )
        .await
        .map(|_| ())
    }

    /// `resources/unsubscribe`; in the modern era, the URI leaves the listen stream's filter.
    pub async fn unsubscribe_resource(&self, uri: &str) -> Result<(), RequestError> {
        if self.era() == Some(crate::era::Era::Modern) {
            let mut filter = self.listen_filter();
            filter.resource_subscriptions.remove(uri);
            return self.listen(filter).await.map(|_| ());
        }
        self.request(
            names::RESOURCES_UNSUBSCRIBE,
            Some(json!({"uri": uri})),
            CallOptions::default(),
        )
        .await
        .map(|_| ())
    }

    pub async fn list_tools(&self) -> Result<Vec<Value>, RequestError> {
        self.list_all(names::TOOLS_LIST, "tools").await
    }

    pub async fn list_resources(&self) -> Result<Vec<Value>, RequestError> {
        self.list_all(names::RESOURCES_LIST, "resources").await
    }

    pub async fn list_resource_templates(&self) -> Result<Vec<Value>, RequestError> {
        self.list_all(names::RESOURCE_TEMPLATES_LIST, "resourceTemplates")
            .await
    }

    pub async fn list_prompts(&self) -> Result<Vec<Value>, RequestError> {
        self.list_all(names::PROMPTS_LIST, "prompts").await
    }

    /// Calls a tool. A result with `isError: true` is still `Ok`: the call worked, the tool
    /// reported a failure.
    pub async fn call_tool(
        &self,
        name: &str,
        arguments: Map<String, Value>,
        options: CallOptions,
    ) -> Result<Value, RequestError> {
        self.request(
            names::TOOLS_CALL,
            Some(tool_call_params(name, arguments)),
            options,
        )
        .await
    }

    /// Calls a tool a host follows: under `call_id` (if given) [`Session::cancel_call`] can
    /// cancel it while it runs; `progress` (if given) receives its progress. Returns the
    /// outcome with the engine's timing, for the host's history; Err (nothing sent) when a
    /// running call of this session already holds `call_id`.
    pub async fn call_tool_tracked(
        &self,
        name: &str,
        arguments: Map<String, Value>,
        call_id: Option<String>,
        progress: Option<Sender<Progress>>,
    ) -> Result<(Result<Value, RequestError>, Timing), DuplicateCallId> {
        let registration = call_id.map(|id| self.track_call(id)).transpose()?;
        let options = CallOptions {
            progress,
            cancel: registration.as_ref().map(|r| r.token()),
            ..CallOptions::default()
        };
        let params = tool_call_params(name, arguments);
        Ok(self
            .request_timed(names::TOOLS_CALL, Some(params), options)
            .await)
    }

    /// `logging/setLevel`: asks the server to send log messages of `level` and above. In the
    /// modern era there is no such request: every request from now on asks for `level` in its
    /// `_meta` instead.
    pub async fn set_log_level(&self, level: LogLevel) -> Result<(), RequestError> {
        if self.era() == Some(crate::era::Era::Modern) {
            let word = serde_json::to_value(level)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string));
            self.set_request_log_level(word.as_deref());
            return Ok(());
        }
        self.request(
            names::LOGGING_SET_LEVEL,
            Some(json!({ "level": level })),
            CallOptions::default(),
        )
        .await
        .map(|_| ())
    }

    pub async fn read_resource(&self, uri: &str) -> Result<Value, RequestError> {
        self.read_resource_cached(uri).await.map(|read| read.result)
    }

    /// Like [`Session::read_resource`], with the read's caching hints.
    pub async fn read_resource_cached(&self, uri: &str) -> Result<ResourceRead, RequestError> {
        let (result, reused) = self
            .request_cached(
                names::RESOURCES_READ,
                Some(json!({"uri": uri})),
                CallOptions::default(),
            )
            .await?;
        let cache = CacheHint::of(&result, reused);
        Ok(ResourceRead { result, cache })
    }

    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: Map<String, Value>,
    ) -> Result<Value, RequestError> {
        self.request(
            names::PROMPTS_GET,
            Some(json!({"name": name, "arguments": arguments})),
            CallOptions::default(),
        )
        .await
    }

    pub async fn ping(&self) -> Result<Value, RequestError> {
        self.request(names::PING, None, CallOptions::default())
            .await
    }
}

/// The params of `tools/call`.
fn tool_call_params(name: &str, arguments: Map<String, Value>) -> Value {
    json!({"name": name, "arguments": arguments})
}

/// A list result without its array (`key`: `tools`, `resources`, …).
fn no_array(method: &str, key: &str) -> RequestError {
    RequestError::Protocol {
        method: method.into(),
        breach: Breach::MissingMember {
            member: key.into(),
            expected: "array".into(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_levels_serialize_as_the_protocol_words_least_severe_first() {
        let words: Vec<Value> = LogLevel::ALL
            .iter()
            .map(|l| serde_json::to_value(l).unwrap())
            .collect();
        assert_eq!(
            words,
            [
                "debug",
                "info",
                "notice",
                "warning",
                "error",
                "critical",
                "alert",
                "emergency"
            ]
        );
        assert!(LogLevel::ALL.windows(2).all(|w| w[0] < w[1]));
        for level in LogLevel::ALL {
            assert_eq!(level.as_str().parse::<LogLevel>(), Ok(level));
            assert_eq!(json!(level.as_str()), serde_json::to_value(level).unwrap());
        }
    }

    #[test]
    fn an_unknown_log_level_is_refused_naming_the_levels() {
        assert_eq!(
            "loud".parse::<LogLevel>(),
            Err("\"loud\" is not a log level (one of debug, info, notice, warning, error, critical, alert, emergency)".to_string())
        );
        assert!(serde_json::from_value::<LogLevel>(json!("Info")).is_err());
    }

    #[tokio::test]
    async fn a_tracked_call_is_cancelled_by_its_id_and_forgotten_when_it_ends() {
        use std::time::Duration;

        use crate::session::test_support::{sent, sh_session};

        let session = sh_session("cat >/dev/null");
        assert!(!session.cancel_call("c1"));
        let call = session.call_tool_tracked("slow", Map::new(), Some("c1".into()), None);
        let cancelling = async {
            tokio::time::sleep(Duration::from_millis(30)).await;
            // While it runs, its id is taken.
            let again = session
                .call_tool_tracked("slow", Map::new(), Some("c1".into()), None)
                .await;
            assert_eq!(
                again.err().unwrap().to_string(),
                "a call with id c1 is already running"
            );
            assert!(session.cancel_call("c1"));
        };
        let (outcome, ()) = tokio::join!(call, cancelling);
        let (result, timing) = outcome.unwrap();
        assert!(
            matches!(result, Err(RequestError::Cancelled { ref method }) if method == "tools/call"),
            "{result:?}"
        );
        assert!(timing.duration_us >= 30_000, "{timing:?}");
        assert!(!session.cancel_call("c1"));
        let frames = sent(&session);
        assert_eq!(
            frames[0]["params"],
            json!({"name": "slow", "arguments": {}})
        );
        assert_eq!(frames[1]["method"], "notifications/cancelled");
        session.close().await;
    }

    #[tokio::test]
    async fn set_log_level_sends_the_protocol_word() {
        use crate::session::test_support::{sent, sh_session};

        let session = sh_session(
            r#"read line; printf '%s\n' '{"jsonrpc":"2.0","id":1,"result":{}}'; cat >/dev/null"#,
        );
        session.set_log_level(LogLevel::Critical).await.unwrap();
        assert_eq!(
            sent(&session)[0],
            json!({"jsonrpc": "2.0", "id": 1, "method": "logging/setLevel", "params": {"level": "critical"}})
        );
        session.close().await;
    }
}
