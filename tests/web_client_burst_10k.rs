//! Issue 39: a burst of 10,000 calls from the devserver's agent routes to one tab; see
//! tests/web_client_burst.rs. Run with
//! `wasm-pack test --headless --chrome -- --test web_client_burst_10k`.
#![cfg(target_arch = "wasm32")]

#[path = "web_client/support.rs"]
mod support;

#[path = "web_client/burst.rs"]
mod burst;

use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn a_burst_of_10000_calls_keeps_the_registration_and_runs_no_failed_call() {
    burst::burst_of(10_000).await;
}
