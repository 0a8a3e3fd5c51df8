//! The official JSON-Schema-Test-Suite (tests/json-schema-suite/) through the core's
//! validator, natively (patterns by `regress`): each schema is first checked as a tool's
//! would be when declared, then every case is run. Every case passes but those listed by name
//! in suite.rs as refused by design (each listed case must fail, or the test fails).
//! `--nocapture` prints the counts.
#[path = "../../tests/json-schema-suite/suite.rs"]
mod suite;

use client_tools_core::schema::{check, validate_with, Draft, Options};

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

#[test]
fn json_schema_test_suite_native() {
    let mut failed = Vec::new();
    for (draft, default) in [("draft2020-12", Draft::V2020_12), ("draft7", Draft::V7)] {
        let out = run(draft, default);
        println!("{}", out.summary());
        for f in &out.failures {
            println!("  FAIL {f}");
        }
        failed.extend(out.failures);
    }
    assert!(failed.is_empty(), "{} cases fail", failed.len());
}
