//! A tool as the call runtime sees it: its declaration and the local rules it enforces.

use crate::protocol::ToolSpec;
use crate::time::Duration;

/// Default local deadline of a handler when a tool sets no `timeout_ms`.
pub const DEFAULT_TOOL_TIMEOUT_MS: u64 = 30_000;

/// A tool on offer: its declaration plus the local rules the runtime enforces.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolDef {
    /// Name, description and JSON Schema parameters, as declared to the agent.
    pub spec: ToolSpec,
    /// Local deadline of one call's handler (default 30 s).
    pub timeout_ms: Option<u64>,
    /// At most this many calls of the tool per run; later calls get an error answer.
    pub max_calls_per_run: Option<u32>,
    /// Whether the arguments' `format`s are asserted (date-time, date, time, email, uri, uuid,
    /// ipv4, ipv6) rather than annotations (`assertFormats`, off by default).
    pub assert_formats: bool,
}

impl ToolDef {
    /// A tool with the default timeout and no per-run limit.
    pub fn new(spec: ToolSpec) -> ToolDef {
        ToolDef {
            spec,
            timeout_ms: None,
            max_calls_per_run: None,
            assert_formats: false,
        }
    }

    /// The handler's local deadline in ms.
    pub fn timeout(&self) -> u64 {
        self.timeout_ms.unwrap_or(DEFAULT_TOOL_TIMEOUT_MS)
    }

    /// The handler's local deadline.
    pub fn timeout_duration(&self) -> Duration {
        Duration::from_ms(self.timeout())
    }
}
