//! The paths the demo server speaks MCP at over HTTP. Both the transports (`http`) and the
//! authorization server (`oauth`, which names the protected resource by its URL) need them.

/// Path of the Streamable HTTP endpoint.
pub const MCP_PATH: &str = "/mcp";
/// Path of the legacy transport's event stream.
pub const SSE_PATH: &str = "/sse";
/// Path the legacy transport's clients POST their messages to.
pub const MESSAGE_PATH: &str = "/message";
