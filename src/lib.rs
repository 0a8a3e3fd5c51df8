//! client-tools: give an AI agent tools that only your web page can run.
//!
//! The wasm SDK: a thin browser shell over the pure, clock-free core in the `client-tools-core`
//! crate (re-exported here as [`protocol`], [`sse`], [`schema`] and [`engine`]). For Rust
//! callers (a Leptos, Yew or Dioxus app, a `wasm-pack test`): [`Client`], [`Options`], [`Tool`],
//! [`CallContext`], with the same names, builders and meaning as the native worker's
//! `client-tools-native`. With the `js-api` feature (the npm package's build), `js_api` holds the
//! JS classes, thin over the Rust API.
//!
//! ```no_run
//! use client_tools::tools::{fill_form, navigate, FormOptions, NavigateOptions};
//! use client_tools::{Client, Options, Tool};
//! use serde_json::json;
//!
//! #[derive(serde::Deserialize)]
//! struct Row { row_id: String }
//!
//! async fn serve() -> Result<Client, client_tools::Error> {
//!     let highlight = Tool::typed("highlight_row", "Highlight a row of the table.", |row: Row, _ctx| async move {
//!         format!("Row {} is highlighted.", row.row_id)
//!     })
//!     .parameters(json!({"type": "object", "required": ["row_id"], "properties": {"row_id": {"type": "string"}}}));
//!     let client = Client::register(
//!         Options::new("https://agent.example.com", "session-id", "session-token")
//!             .name("web")
//!             .tool(highlight)
//!             .tool(fill_form(FormOptions::default().form("#order-form"))?)
//!             .tool(navigate(NavigateOptions::default().router(|path| async move { let _ = path; }))?),
//!     )
//!     .await?;
//!     Ok(client) // keep it: a dropped Client leaves
//! }
//! ```

#![warn(missing_docs)]

#[cfg(all(
    not(target_feature = "atomics"),
    target_family = "wasm",
    not(debug_assertions)
))]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// Debug builds count the bytes in use, for the memory tests ([`debug::heap_in_use`]): the wasm
/// memory only grows, so its size tells a leak from the allocator's peak only after long runs.
#[cfg(all(
    not(target_feature = "atomics"),
    target_family = "wasm",
    debug_assertions
))]
mod counted {
    use std::alloc::{GlobalAlloc, Layout};
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

    pub(crate) struct Counted(talc::wasm::WasmDynamicTalc);
    pub(crate) static IN_USE: AtomicUsize = AtomicUsize::new(0);

    #[global_allocator]
    static ALLOC: Counted = Counted(talc::wasm::new_wasm_dynamic_allocator());

    // SAFETY: each method passes its arguments on to talc unchanged and only counts.
    unsafe impl GlobalAlloc for Counted {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let p = unsafe { self.0.alloc(layout) };
            if !p.is_null() {
                IN_USE.fetch_add(layout.size(), Relaxed);
            }
            p
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            unsafe { self.0.dealloc(ptr, layout) };
            IN_USE.fetch_sub(layout.size(), Relaxed);
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            let p = unsafe { self.0.realloc(ptr, layout, new_size) };
            if !p.is_null() {
                IN_USE.fetch_add(new_size, Relaxed);
                IN_USE.fetch_sub(layout.size(), Relaxed);
            }
            p
        }
    }
}

mod api;
mod browser;
mod js;
#[cfg(feature = "js-api")]
pub mod js_api;
mod registry;
mod runner;
mod turns;

#[cfg(feature = "webmcp")]
mod exposure;
#[cfg(feature = "testing")]
pub mod testing;
#[cfg(feature = "page-tools")]
pub mod tools;
mod ws;

/// Checks for the SDK's own tests, in debug builds only: see `src/js/cell.rs`.
#[cfg(debug_assertions)]
#[doc(hidden)]
pub mod debug {
    pub use crate::js::cell::{borrows_held_across_js, hold_a_borrow_across};

    /// The bytes the module's allocator has handed out and not taken back (wasm32 only).
    #[cfg(all(not(target_feature = "atomics"), target_family = "wasm"))]
    pub fn heap_in_use() -> usize {
        crate::counted::IN_USE.load(std::sync::atomic::Ordering::Relaxed)
    }
}

#[cfg(feature = "webmcp")]
pub use api::webmcp;
pub use api::{
    Browser, BrowserOptions, CallContext, Cancelled, Client, ExecuteOptions, Execution, Options,
    Registry, Tool, ToolScope, TurnTools, TurnToolsOptions, WsOptions, WsTools,
};
pub use client_tools_core::adapters::turns::TurnCallEvent;
pub use client_tools_core::adapters::ws::{Dialect, RespondAfterResult, WsCallEvent};
pub use client_tools_core::api::{Error, ErrorKind, IntoToolResult};
pub use client_tools_core::calls::Returned;
pub use client_tools_core::calls::{Answer, Content, ErrorKind as AnswerKind};
pub use client_tools_core::engine::{CallEvent, ClientState, Paths, Status, WhenHidden};
pub use client_tools_core::protocol::Lifetime;
pub use client_tools_core::{engine, protocol, schema, sse};

/// The core's pattern engine in the browser (the `host-regex` feature, see
/// `client_tools_core::schema`): the page's `RegExp` (`js::regex::pattern`), so no regex engine
/// is in the .wasm. The core calls it by this name, resolved by the linker.
#[cfg(target_family = "wasm")]
#[no_mangle]
extern "Rust" fn client_tools_core_host_pattern(
    pattern: &str,
    text: Option<&str>,
) -> Result<bool, String> {
    js::regex::pattern(pattern, text)
}

/// The README's and the Rust web app guide's Rust examples, compiled as doctests for wasm32 by
/// `scripts/test` (`cargo test --doc --target wasm32-unknown-unknown -Zdoctest-xcompile`).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
#[doc = include_str!("../docs/rust.md")]
pub struct GuideExamples;

/// The testing guide's Rust examples, compiled as [`GuideExamples`] are (feature `testing`).
#[cfg(all(doctest, feature = "testing"))]
#[doc = include_str!("../docs/testing.md")]
pub struct TestingGuideExamples;
