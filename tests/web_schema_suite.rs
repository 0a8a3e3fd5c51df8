//! The official JSON-Schema-Test-Suite (tests/json-schema-suite/) through the core's
//! validator in the wasm build, patterns by the page's `RegExp` (the SDK's `host-regex`
//! hook): the same cases and the same list as the native core/tests/schema_suite.rs. Also the
//! ReDoS case with the page's engine. The counts are printed to the console.
#![cfg(target_arch = "wasm32")]

#[path = "json-schema-suite/suite.rs"]
mod suite;

use client_tools::schema::{check, validate, validate_with, Draft, Options};
use serde_json::json;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn run(draft: &'static str, default: Draft) -> suite::Outcome {
    let documents = suite::documents(draft);
    let options = Options {
        draft: default,
        assert_formats: false,
        documents: &documents,
    };
    suite::run(draft, &|schema, data| {
        check(schema, &options).map_err(|e| e.to_string())?;
        Ok(validate_with(schema, data, &options).is_ok())
    })
}

#[wasm_bindgen_test]
fn json_schema_test_suite_in_the_browser() {
    let mut failed = Vec::new();
    for (draft, default) in [("draft2020-12", Draft::V2020_12), ("draft7", Draft::V7)] {
        let out = run(draft, default);
        console_log!("{} (browser, RegExp)", out.summary());
        for f in &out.failures {
            console_log!("  FAIL {f}");
        }
        failed.extend(out.failures);
    }
    assert!(failed.is_empty(), "{} cases fail", failed.len());
}

#[wasm_bindgen_test]
fn pattern_with_the_pages_regexp_and_the_redos_cap() {
    let id = json!({"properties": {"id": {"type": "string", "pattern": "^[0-9]+$"}}});
    assert_eq!(
        validate(&id, &json!({"id": "1; DROP TABLE"}))
            .unwrap_err()
            .to_string(),
        "arguments.id: \"1; DROP TABLE\" does not match ^[0-9]+$ (pattern)"
    );
    // u-flag semantics, as natively.
    assert!(validate(&json!({"pattern": "^.$"}), &json!("😀")).is_ok());
    assert!(validate(&json!({"pattern": "^\\p{Lu}"}), &json!("Émile")).is_ok());
    assert!(check(&json!({"pattern": "^[0-9+$"}), &Options::default()).is_err());
    // The app's catastrophic pattern against a hostile 50 KB string: answered, the page not hung.
    let schema = json!({"properties": {"name": {"type": "string", "pattern": "^(a+)+$"}}});
    let hostile = format!("{}!", "a".repeat(50 * 1024));
    let message = validate(&schema, &json!({"name": hostile}))
        .unwrap_err()
        .to_string();
    assert!(message.ends_with("(pattern limit)"), "{message}");
    assert!(validate(&schema, &json!({"name": "aaaa!"})).is_err());
    assert!(validate(&schema, &json!({"name": "aaaa"})).is_ok());
}
