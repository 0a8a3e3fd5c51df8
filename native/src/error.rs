//! What can go wrong, with a kind a program can match and a message a person can act on.

use std::fmt;

/// What kind of failure an [`Error`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// An option is wrong; [`Error::field`] names it (`name`, `tools[1].parameters`, …).
    InvalidOption,
    /// No registration within the register timeout; the message says what failed last.
    RegisterTimeout,
    /// The server refused the token (401/403). The client has stopped.
    Unauthorized,
    /// The server refused a request as invalid (for a register: the client has stopped).
    Rejected,
    /// The client is not registered: it left, or it stopped after a fatal error.
    NotRegistered,
}

impl ErrorKind {
    /// The kind as a short code, the same words the browser SDK's errors use.
    pub fn code(self) -> &'static str {
        match self {
            ErrorKind::InvalidOption => "invalid_option",
            ErrorKind::RegisterTimeout => "register_timeout",
            ErrorKind::Unauthorized => "unauthorized",
            ErrorKind::Rejected => "rejected",
            ErrorKind::NotRegistered => "not_registered",
        }
    }
}

/// A failure of [`Client`](crate::Client): its kind, the option at fault if any, and what
/// happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    field: Option<String>,
    message: String,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            field: None,
            message: message.into(),
        }
    }

    pub(crate) fn invalid_option(field: impl Into<String>, message: impl Into<String>) -> Error {
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
