//! The two shapes of a tool's answer every tool module builds: a text result and a tool
//! execution error (`isError: true`).

use rmcp::model::{CallToolResult, ContentBlock};

/// A successful result with one text block.
pub fn text_result(text: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}

/// A tool execution error (`isError: true`) with one text block.
pub fn error_result(text: impl Into<String>) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(text)])
}
