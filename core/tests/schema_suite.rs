//! The official JSON-Schema-Test-Suite through `schema::validate`, natively.
#[path = "../../tests/json-schema-suite/suite.rs"]
mod suite;

use client_tools_core::schema::validate;

#[test]
fn suite_baseline() {
    for draft in ["draft2020-12", "draft7"] {
        let out = suite::run(draft, &|s, v| Ok(validate(s, v).is_ok()));
        println!("{}", out.summary());
    }
}
