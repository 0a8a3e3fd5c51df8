//! Numbers in a call's arguments and result read the same natively and in Node (issue 38): run
//! with `cargo test -p client-tools --test numbers` and `wasm-pack test --node -- --test
//! numbers` (scripts/test runs both); tests/web_numbers.rs runs the same cases in a tab.

#[path = "numbers/cases.rs"]
mod cases;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

#[test]
fn numbers_reach_a_rust_handler_and_its_result_as_written() {
    // The SDK's crate linked in, as an app links it (in a wasm build, whatever it defines for
    // the core is then in the module).
    let _ = client_tools::schema::check;
    cases::check_every_case();
}
