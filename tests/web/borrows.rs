//! The check every browser test's support runs after each scenario or call: no call into JS was
//! made while a borrow of the SDK's state was held (`src/js/cell.rs`). Debug builds only, as
//! `wasm-pack test` builds them.

/// Panics listing each call into JS made while a borrow was held since the last check.
pub fn assert_no_borrow_across_js(after: &str) {
    let held = client_tools::debug::borrows_held_across_js();
    assert!(
        held.is_empty(),
        "{after}: {} call(s) into JS while the SDK's state was borrowed:\n{}",
        held.len(),
        held.join("\n")
    );
}
