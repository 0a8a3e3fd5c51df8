//! The Rust API of the browser SDK: the same names, builders and meaning as the native
//! worker's (`client-tools-native`), over the browser shell. Handler futures and callbacks
//! need not be `Send`; what both shells share is the core's ([`client_tools_core::api`]).

pub(crate) mod client;
pub(crate) mod context;
pub(crate) mod options;
pub(crate) mod scope;
pub(crate) mod tool;

pub use client::Client;
pub use context::{CallContext, Cancelled};
pub use options::Options;
pub use scope::ToolScope;
pub use tool::Tool;
