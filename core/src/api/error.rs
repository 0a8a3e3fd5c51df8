//! What can go wrong in either shell's API, with a kind a program can match, its code (the
//! words the browser SDK's JS errors carry as `code`) and a message a person can act on.

use crate::engine::{EngineError, EngineErrorKind};
use crate::protocol::ValidationError;
use std::fmt;

/// What kind of failure an [`Error`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// An option or a tool definition is wrong; [`Error::field`] names it (`name`,
    /// `tools[1].parameters`, …).
    InvalidOption,
    /// No registration within the register timeout; the message says what failed last.
    RegisterTimeout,
    /// The server refused the token (401/403). The client has stopped.
    Unauthorized,
    /// The server refused a request for good (for a register: the client has stopped).
    Rejected,
    /// The client is not registered: it left, or it stopped after a fatal error.
    NotRegistered,
    /// A registry was asked to run a tool it does not hold.
    UnknownTool,
    /// The caller's signal aborted what was asked (a registration, a call).
    Aborted,
}

impl ErrorKind {
    /// The kind as a short code: the `code` of the browser SDK's JS errors
    /// (`ClientErrorCode` in its `.d.ts`).
    pub fn code(self) -> &'static str {
        match self {
            ErrorKind::InvalidOption => "invalid_option",
            ErrorKind::RegisterTimeout => EngineErrorKind::RegisterTimeout.as_str(),
            ErrorKind::Unauthorized => EngineErrorKind::Unauthorized.as_str(),
            ErrorKind::Rejected => EngineErrorKind::Rejected.as_str(),
            ErrorKind::NotRegistered => EngineErrorKind::NotRegistered.as_str(),
            ErrorKind::UnknownTool => "unknown_tool",
            ErrorKind::Aborted => "aborted",
        }
    }

    /// Every kind, for a test that compares the code lists of the shells.
    pub const ALL: [ErrorKind; 7] = [
        ErrorKind::InvalidOption,
        ErrorKind::RegisterTimeout,
        ErrorKind::Unauthorized,
        ErrorKind::Rejected,
        ErrorKind::NotRegistered,
        ErrorKind::UnknownTool,
        ErrorKind::Aborted,
    ];
}

impl From<EngineErrorKind> for ErrorKind {
    fn from(kind: EngineErrorKind) -> ErrorKind {
        match kind {
            EngineErrorKind::Unauthorized => ErrorKind::Unauthorized,
            EngineErrorKind::Rejected => ErrorKind::Rejected,
            EngineErrorKind::RegisterTimeout => ErrorKind::RegisterTimeout,
            EngineErrorKind::NotRegistered => ErrorKind::NotRegistered,
        }
    }
}

/// A failure of a client or a tool registry: its kind, the option at fault if any, and what
/// happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    field: Option<String>,
    message: String,
}

/// The engine names fields as the JS options spell them; the Rust APIs spell them as their
/// builder methods do.
const RUST_SPELLING: [(&str, &str); 11] = [
    ("baseUrl", "base_url"),
    ("sessionId", "session_id"),
    ("registerTimeoutMs", "register_timeout"),
    ("requestTimeoutMs", "request_timeout"),
    ("streamIdleTimeoutMs", "stream_idle_timeout"),
    ("whenHidden", "when_hidden"),
    ("timeoutMs", "timeout"),
    ("maxCallsPerRun", "max_calls_per_run"),
    ("lifetime.data.seconds", "lifetime"),
    ("keyPrefix", "key_prefix"),
    ("assertFormats", "assert_formats"),
];

impl Error {
    /// An error of `kind` that names no field.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            field: None,
            message: message.into(),
        }
    }

    /// An [`ErrorKind::InvalidOption`] naming `field`.
    pub fn invalid_option(field: impl Into<String>, message: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::InvalidOption,
            field: Some(field.into()),
            message: message.into(),
        }
    }

    /// What went wrong, for a program.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The option at fault, for [`ErrorKind::InvalidOption`].
    pub fn field(&self) -> Option<&str> {
        self.field.as_deref()
    }

    /// What went wrong, for a person (without the field; [`Display`](fmt::Display) adds it).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The same error with its field spelled as the Rust builders name it (`base_url`,
    /// `tools[0].timeout`) rather than as the JS options do (`baseUrl`, `tools[0].timeoutMs`).
    pub fn in_rust_spelling(mut self) -> Error {
        if let Some(field) = self.field.take() {
            let field = (RUST_SPELLING.iter()).fold(field, |f, (js, rs)| f.replace(js, rs));
            self.field = Some(field);
        }
        self
    }
}

impl From<ValidationError> for Error {
    /// A limit the engine checks, its field in the JS spelling (see [`Error::in_rust_spelling`]).
    fn from(e: ValidationError) -> Error {
        Error::invalid_option(e.field, e.message)
    }
}

impl From<EngineError> for Error {
    fn from(e: EngineError) -> Error {
        Error::new(e.kind.into(), e.message)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.field {
            Some(field) => write!(f, "{field}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_respelled_for_rust_and_codes_are_the_js_ones() {
        let e = Error::invalid_option("tools[2].timeoutMs", "0 ms, must be at least 1");
        assert_eq!(
            e.to_string(),
            "tools[2].timeoutMs: 0 ms, must be at least 1"
        );
        let e = e.in_rust_spelling();
        assert_eq!(e.field(), Some("tools[2].timeout"));
        assert_eq!(e.to_string(), "tools[2].timeout: 0 ms, must be at least 1");
        assert_eq!(ErrorKind::NotRegistered.code(), "left");
        assert_eq!(ErrorKind::InvalidOption.code(), "invalid_option");
        assert_eq!(
            Error::new(ErrorKind::Rejected, "no")
                .in_rust_spelling()
                .field(),
            None
        );
    }
}
