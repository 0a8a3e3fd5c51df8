//! What the Rust APIs of both shells share and is pure: errors with a kind and its code
//! ([`Error`], [`ErrorKind`]), what a handler may return ([`IntoToolResult`]), typed arguments
//! ([`typed_arguments`]), tool scopes ([`Scopes`]: the union of a client's live scopes), and the options every shell takes ([`Settings`], checked into the
//! engine's [`Config`](crate::engine::Config) by [`Settings::config`]).
//!
//! The shells add only what differs between a tab and a worker: the handler and callback
//! types (`Send` in the worker, not on wasm32), the context a handler gets, and the I/O. So
//! `client_tools::{Client, Options, Tool}` in a tab and `client_tools_native::{Client, Options,
//! Tool}` in a worker have the same names, builders and meaning.

mod error;
mod result;
mod scopes;
mod settings;
mod typed;

pub use error::{Error, ErrorKind};
pub use result::IntoToolResult;
pub use scopes::{Offer, ScopeId, Scopes};
pub use settings::{
    engine_duration, header_value, Settings, DEFAULT_REGISTER_TIMEOUT, DEFAULT_REQUEST_TIMEOUT,
    DEFAULT_STREAM_IDLE_TIMEOUT,
};
pub use typed::typed_arguments;
