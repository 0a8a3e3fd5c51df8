//! Issue 39: a burst of 5,000 calls (10,000: tests/web_client_burst_10k.rs) from the devserver's agent routes to one
//! tab. The registration never lapses (pings go before acks), every call is answered or failed
//! with its reason, and no handler runs for a call that failed before its result was due (a
//! handler starts only once its ack is taken; calls past the live-call cap are left to the
//! server's ack deadline). The agent's requests go to `localhost`, the SDK's to `127.0.0.1`,
//! so that the browser's six connections per host are not the agent's and the SDK's to share.
//! Run with `wasm-pack test --headless --chrome -- --test web_client_burst`
//! (`CLIENT_TOOLS_DEVSERVER` names the devserver, started with `--settled-calls 20000` so that
//! every call's outcome can be read; `scripts/test` does both).
#![cfg(target_arch = "wasm32")]

#[path = "web_client/support.rs"]
mod support;

#[path = "web_client/burst.rs"]
mod burst;

use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn a_burst_of_5000_calls_keeps_the_registration_and_runs_no_failed_call() {
    burst::burst_of(5_000).await;
}
