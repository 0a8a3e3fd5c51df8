//! No token in anything the app sees, in a tab (issue 39): tests/token_secrets/scenario.js
//! against the devserver. Run with `wasm-pack test --headless --chrome -- --test
//! web_token_secrets` (`CLIENT_TOOLS_DEVSERVER` names the devserver; scripts/test sets it);
//! tests/token_secrets.rs runs the same scenario in Node.
#![cfg(target_arch = "wasm32")]

#[path = "token_secrets/checks.rs"]
mod checks;
#[path = "web_client/support.rs"]
#[allow(dead_code)] // `strings` is not used here
mod support;

use js_sys::Promise;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(module = "/tests/token_secrets/scenario.js")]
extern "C" {
    #[wasm_bindgen(js_name = tokenSecrets)]
    fn token_secrets(t: &JsValue) -> Promise;
}

#[wasm_bindgen_test]
async fn no_token_reaches_a_status_an_error_a_console_line_or_a_result_in_a_tab() {
    checks::check(&support::run(token_secrets).await);
}
