//! One word for each fact (issue 29): the error codes are the same in JS, in the Rust wasm API
//! and in the native worker. Both Rust APIs use the core's `ErrorKind` (its `code()`); the JS
//! layer's `.d.ts` (src/js_api/client.d.ts) lists the codes as `ClientErrorCode`, and the
//! package's JS (`pkg-template/*.js`: the load, the guards, the wrapper) makes the three codes
//! only JS has. A fatal status's `kind` is the code its error has.

use client_tools_core::api::ErrorKind;
use client_tools_core::engine::EngineErrorKind;
use std::collections::BTreeSet;
use std::path::Path;

fn repo_file(path: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The quoted words of the TypeScript declaration that starts with `start`, to its `;`.
fn union_after(text: &str, start: &str) -> BTreeSet<String> {
    let from = text.find(start).unwrap_or_else(|| panic!("no {start:?}"));
    let decl = &text[from + start.len()..];
    let decl = &decl[..decl.find(';').expect("the declaration ends")];
    decl.split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// The codes the JS glue gives its own errors: the first argument of each `coded(` call.
fn glue_codes(text: &str) -> BTreeSet<String> {
    text.split("coded(")
        .skip(1)
        .filter_map(|rest| {
            let rest = rest.trim_start().strip_prefix('"')?;
            Some(rest[..rest.find('"').unwrap()].to_owned())
        })
        .collect()
}

#[test]
fn the_js_rust_and_native_code_lists_are_one_list() {
    let dts = repo_file("src/js_api/client.d.ts");
    let declared = union_after(&dts, "export type ClientErrorCode =");
    let rust: BTreeSet<String> = ErrorKind::ALL.iter().map(|k| k.code().to_owned()).collect();
    let mut glue = BTreeSet::new();
    for file in ["api.js", "errors.js", "guards.js", "tools.js", "wrap.js"] {
        glue.extend(glue_codes(&repo_file(&format!("pkg-template/{file}"))));
    }
    let js_only: BTreeSet<String> = glue.difference(&rust).cloned().collect();
    assert_eq!(
        js_only,
        ["freed", "not_loaded", "wasm_load"]
            .map(String::from)
            .into()
    );
    let all: BTreeSet<String> = rust.union(&glue).cloned().collect();
    assert_eq!(
        declared, all,
        "ClientErrorCode in the .d.ts against the Rust and glue codes"
    );
}

#[test]
fn a_fatal_status_kind_is_its_error_code() {
    let kinds = [
        EngineErrorKind::Unauthorized,
        EngineErrorKind::Rejected,
        EngineErrorKind::RegisterTimeout,
        EngineErrorKind::NotRegistered,
    ];
    for kind in kinds {
        assert_eq!(kind.as_str(), ErrorKind::from(kind).code());
        assert_eq!(
            serde_json::to_value(kind).unwrap(),
            serde_json::Value::from(kind.as_str())
        );
    }
    let dts = repo_file("src/js_api/client.d.ts");
    let declared = union_after(&dts, "fatal: true; kind:");
    let words: BTreeSet<String> = kinds.iter().map(|k| k.as_str().to_owned()).collect();
    assert_eq!(declared, words, "the status kinds in the .d.ts");
}
