//! Typed helpers over [`Session::request`] for the server features every host uses. Results
//! stay JSON values: an inspector shows what the server sent, including fields it does not know.

use serde_json::{Map, Value, json};

use crate::session::{CallOptions, RequestError, Session};

/// A list can be paged at most this many times; a server that never stops paging is a bug.
const MAX_PAGES: usize = 1000;

impl Session {
    /// Lists every item of a paginated list method (`tools/list` → `tools`), following
    /// `nextCursor` until the server stops.
    pub async fn list_all(&self, method: &str, key: &str) -> Result<Vec<Value>, RequestError> {
        let mut items = Vec::new();
        let mut cursor: Option<Value> = None;
        let mut seen_cursors = Vec::new();
        for _ in 0..MAX_PAGES {
            let params = cursor.as_ref().map(|c| json!({"cursor": c}));
            let result = self.request(method, params, CallOptions::default()).await?;
            let page = result.get(key).and_then(Value::as_array).ok_or_else(|| {
                RequestError::Protocol {
                    method: method.into(),
                    detail: format!("result has no \"{key}\" array"),
                }
            })?;
            items.extend(page.iter().cloned());
            match result.get("nextCursor") {
                Some(next) if !next.is_null() => {
                    if seen_cursors.contains(next) {
                        return Err(RequestError::Protocol {
                            method: method.into(),
                            detail: format!("nextCursor {next} repeats an earlier cursor"),
                        });
                    }
                    seen_cursors.push(next.clone());
                    cursor = Some(next.clone());
                }
                _ => return Ok(items),
            }
        }
        Err(RequestError::Protocol {
            method: method.into(),
            detail: format!("still paging after {MAX_PAGES} pages"),
        })
    }

    pub async fn list_tools(&self) -> Result<Vec<Value>, RequestError> {
        self.list_all("tools/list", "tools").await
    }

    pub async fn list_resources(&self) -> Result<Vec<Value>, RequestError> {
        self.list_all("resources/list", "resources").await
    }

    pub async fn list_resource_templates(&self) -> Result<Vec<Value>, RequestError> {
        self.list_all("resources/templates/list", "resourceTemplates")
            .await
    }

    pub async fn list_prompts(&self) -> Result<Vec<Value>, RequestError> {
        self.list_all("prompts/list", "prompts").await
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
            "tools/call",
            Some(json!({"name": name, "arguments": arguments})),
            options,
        )
        .await
    }

    pub async fn read_resource(&self, uri: &str) -> Result<Value, RequestError> {
        self.request(
            "resources/read",
            Some(json!({"uri": uri})),
            CallOptions::default(),
        )
        .await
    }

    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: Map<String, Value>,
    ) -> Result<Value, RequestError> {
        self.request(
            "prompts/get",
            Some(json!({"name": name, "arguments": arguments})),
            CallOptions::default(),
        )
        .await
    }

    pub async fn ping(&self) -> Result<Value, RequestError> {
        self.request("ping", None, CallOptions::default()).await
    }
}
