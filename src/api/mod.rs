//! The Rust API of the browser SDK: the same names, builders and meaning as the native
//! worker's (`client-tools-native`), over the browser shell. `Tool` and `Options` are the
//! core's one builder of each ([`client_tools_core::api`]) over [`Browser`]: handler futures
//! and callbacks need not be `Send`.

pub(crate) mod client;
pub(crate) mod context;
pub(crate) mod options;
pub(crate) mod registry;
pub(crate) mod scope;
pub(crate) mod shell;
pub(crate) mod tool;
pub(crate) mod turns;
#[cfg(feature = "webmcp")]
pub mod webmcp;
pub(crate) mod ws;

pub use client::Client;
pub use context::{CallContext, Cancelled};
pub use options::{BrowserOptions, Options};
pub use registry::{ExecuteOptions, Execution, Registry};
pub use scope::ToolScope;
pub use shell::Browser;
pub use tool::Tool;
pub use turns::{TurnTools, TurnToolsOptions};
pub use ws::{WsOptions, WsTools};
