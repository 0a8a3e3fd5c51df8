//! client-tools: give an AI agent tools that only your web page can run.
//!
//! The crate is a pure, clock-free core ([`protocol`], [`sse`], [`engine`]) under a thin
//! browser shell compiled to WebAssembly. The core builds and tests natively.

mod browser;
mod client;
pub mod engine;
pub mod protocol;
pub mod schema;
pub mod sse;
pub mod tools;

pub use client::Client;
