//! The SARIF 2.1.0 log both of Periscope's reports write (`periscope check`'s, `periscope
//! audit`'s): one run of one tool, its rules and its results.

use serde_json::{Value, json};

/// A SARIF 2.1.0 log of one run of `tool` (`periscope check`'s, `periscope audit`'s).
pub(crate) fn log(tool: &str, rules: Vec<Value>, results: Vec<Value>) -> Value {
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": tool,
                "informationUri": "https://github.com/periscope-mcp/periscope",
                "version": crate::ENGINE_VERSION,
                "rules": rules,
            }},
            "results": results,
        }],
    })
}
