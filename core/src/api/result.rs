//! What a Rust handler may return, in either shell.

use crate::calls::Returned;
use serde_json::Value;
use std::fmt::Display;

/// What a handler may return. The call runtime reads it by the one convention every
/// transport shares ([`Answer::from_returned`](crate::calls::Answer::from_returned)):
///
/// | returned | result |
/// |---|---|
/// | `String`, `&str` | that text |
/// | `()` | `"Done."` |
/// | `serde_json::Value` | a JSON string as its text; `{ "isError": bool, "text": string }` and the agent-tools `{ "success", "data", "error" }` as those results (a malformed one is an error that says so); anything else as its JSON |
/// | `Result<T, E>` | `Ok(t)` as `t` maps; `Err(e)` an `is_error` result with `e.to_string()` |
pub trait IntoToolResult {
    /// What the handler returned, for the call runtime.
    fn into_returned(self) -> Returned;
}

impl IntoToolResult for String {
    fn into_returned(self) -> Returned {
        Returned::text(self)
    }
}

impl IntoToolResult for &str {
    fn into_returned(self) -> Returned {
        Returned::text(self)
    }
}

impl IntoToolResult for Value {
    fn into_returned(self) -> Returned {
        Returned::Value(self)
    }
}

impl IntoToolResult for () {
    fn into_returned(self) -> Returned {
        Returned::Nothing
    }
}

impl IntoToolResult for Returned {
    fn into_returned(self) -> Returned {
        self
    }
}

impl<T: IntoToolResult, E: Display> IntoToolResult for Result<T, E> {
    fn into_returned(self) -> Returned {
        match self {
            Ok(t) => t.into_returned(),
            Err(e) => Returned::Threw(e.to_string()),
        }
    }
}
