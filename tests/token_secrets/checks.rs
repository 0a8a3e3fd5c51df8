//! What tests/token_secrets/scenario.js must have seen, in Node and in a tab alike.

use serde_json::Value;

/// Asserts on the scenario's answer: no token in any text the app was handed, a token ending in
/// a newline trimmed and sent, a malformed refreshed token ending in `unauthorized` at once, a
/// malformed first token refused at register, a fresh token the server refuses ending in
/// `unauthorized`.
pub fn check(r: &Value) {
    assert_eq!(
        r["leaks"],
        serde_json::json!([]),
        "a token in what the app saw: {r}"
    );
    assert!(
        r["texts"].as_u64().unwrap() >= 6,
        "statuses and results were collected: {r}"
    );
    assert!(r["tokens"].as_u64().unwrap() >= 3, "{r}");

    let trimmed = &r["trimmed"];
    assert_eq!(
        trimmed["state"], "registered",
        "a trailing newline is trimmed: {r}"
    );
    for round in ["first", "refreshed"] {
        assert_eq!(trimmed[round]["is_error"], false, "{round}: {r}");
    }
    assert_eq!(trimmed["refreshed"]["text"], "echo two", "{r}");
    assert_eq!(trimmed["fatal"], serde_json::json!([]), "{r}");

    // Stopped within the scenario's 8 s (on main: still `registering` then, a network error
    // retried for ~50 s); core/tests/engine_token.rs shows it is at once.
    let malformed = &r["malformed"];
    assert_eq!(malformed["state"], "failed", "{r}");
    assert_eq!(malformed["fatal"][0]["kind"], "unauthorized", "{r}");
    let message = malformed["fatal"][0]["message"].as_str().unwrap();
    assert!(message.contains("a line break"), "the problem named: {r}");

    for (case, problem) in [("firstString", "a NUL"), ("firstFunction", "a line break")] {
        assert_eq!(r[case]["code"], "invalid_option", "{case}: {r}");
        let message = r[case]["message"].as_str().unwrap();
        assert!(
            message.starts_with("token: ") && message.contains(problem),
            "{case}: {r}"
        );
    }

    assert_eq!(r["stale"]["state"], "failed", "{r}");
    assert_eq!(r["stale"]["fatal"][0]["kind"], "unauthorized", "{r}");
}
