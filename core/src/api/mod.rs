//! What the Rust APIs of both shells share and is pure: the one [`Tool`] and [`Options`]
//! builder, errors with a kind and its code ([`Error`], [`ErrorKind`]), what a handler may
//! return ([`IntoToolResult`]), typed arguments ([`typed_arguments`]), tool scopes ([`Scopes`]:
//! the union of a client's live scopes), and the settings every shell takes ([`Settings`],
//! checked into the engine's [`Config`](crate::engine::Config) by [`Settings::config`]).
//!
//! A shell adds only what differs between a tab and a worker ([`Shell`]): the context a
//! handler gets, whether handlers and callbacks are `Send` ([`shell::Threads`]), its own
//! options, and the I/O. So `client_tools::{Client, Options, Tool}` in a tab and
//! `client_tools_native::{Client, Options, Tool}` in a worker have the same names, builders,
//! docs and meaning: their `Tool` is [`Tool`]`<Browser>` or [`Tool`]`<Worker>`.

mod error;
mod options;
mod result;
mod scopes;
mod settings;
pub mod shell;
mod tool;
mod typed;

pub use error::{Error, ErrorKind};
pub use options::{Callback, Options, OptionsParts, TokenSource};
pub use result::IntoToolResult;
pub use scopes::{Offer, ScopeId, Scopes};
pub use settings::{
    engine_duration, Settings, DEFAULT_REGISTER_TIMEOUT, DEFAULT_REQUEST_TIMEOUT,
    DEFAULT_STREAM_IDLE_TIMEOUT,
};
pub use shell::Shell;
pub use tool::{Handler, Tool, ToolParts};
pub use typed::typed_arguments;
