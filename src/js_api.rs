//! The JS API (cargo feature `js-api`, on in the npm package's build): the `#[wasm_bindgen]`
//! classes and functions the package's JS wraps (pkg-template/api.js). Each converts JS values
//! to the Rust API's types and back; the behaviour is the Rust API's. A Rust app leaves the
//! feature off, and its module exports none of them.

pub use crate::js::client::Client;
pub use crate::registry::ToolRegistry;
pub use crate::turns::TurnTools;
pub use crate::webmcp::expose_to_webmcp;
pub use crate::ws::WsTools;
