//! Issue 39's burst suite, shared by tests/web_client_burst.rs (5,000 calls) and
//! tests/web_client_burst_10k.rs (10,000), one burst per test binary so that each fits the
//! runner's time per binary: the scenario (tests/web/burst.js) and what must hold of it.

use super::support::run;
use js_sys::Promise;
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::console_log;

#[wasm_bindgen(module = "/tests/web/burst.js")]
extern "C" {
    fn burst(t: &JsValue, n: u32) -> Promise;
}

thread_local! {
    static CALLS: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

fn scenario(t: &JsValue) -> Promise {
    burst(t, CALLS.with(|c| c.get()))
}

/// Runs a burst of `n` calls against a new session and checks it: the registration never
/// lapsed, every call was answered or failed with its reason, no handler ran for a call that
/// failed, none ran twice.
pub async fn burst_of(n: u32) {
    CALLS.with(|c| c.set(n));
    check(&run(scenario).await, u64::from(n));
}

pub fn check(seen: &Value, n: u64) {
    console_log!("burst of {n}: {seen}");
    let num = |k: &str| seen[k].as_u64().unwrap_or_else(|| panic!("{k}: {seen}"));
    assert_eq!(num("placed"), n, "{seen}");
    // The registration never lapsed: pings went before the acks.
    let statuses = seen["statuses"].as_array().unwrap();
    assert!(
        !statuses
            .iter()
            .any(|s| s == "lapsed" || s == "reregistered"),
        "{seen}"
    );
    assert_eq!(seen["live"], true, "still registered at the end: {seen}");
    // Every call answered or failed with its reason.
    assert_eq!(num("answered") + num("failed"), n, "{seen}");
    for (reason, _) in seen["reasons"].as_object().unwrap() {
        assert!(
            ["ack_timeout", "result_timeout"].contains(&reason.as_str()),
            "{reason}: {seen}"
        );
    }
    // No handler ran for a failed call, none twice, each answered call's did.
    assert_eq!(seen["failedRan"], Value::Array(Vec::new()), "{seen}");
    assert_eq!(num("ranTwice"), 0, "{seen}");
    assert_eq!(num("answeredRan"), num("answered"), "{seen}");
    assert_eq!(num("ran"), num("answered"), "{seen}");
}
