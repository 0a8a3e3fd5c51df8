//! The JSON-Schema-Test-Suite's cases (draft2020-12 and draft7, every top-level file; see
//! README.md beside this file) and a runner that feeds each to a validator and counts.
//! Shared by the native test (core/tests/schema_suite.rs) and the browser one
//! (tests/web_schema_suite.rs), which include this file by path.

use serde_json::Value;

include!("files.rs");

/// The cases expected to fail, by draft, file and group (an empty group lists the whole
/// file; `group / case` one case), with the reason: what the validator refuses by design
/// (it reads no `$vocabulary`). A listed case still runs, and one that passes is a failure:
/// the list cannot hide a case that works. The suite's remote documents and the drafts'
/// meta-schemas are given to the validator as known documents ([`documents`]), as the
/// suite asks of a runner; nothing is fetched.
pub const LISTED: &[(&str, &str, &str, &str)] = &[
    // (draft, file, group, reason)
    ("draft2020-12", "vocabulary.json", "schema that uses custom metaschema with with no validation vocabulary / no validation: invalid number, but it still validates", VOCABULARY),
];

/// At most this share of a draft's cases may be listed, in percent.
pub const LISTED_PERCENT_MAX: usize = 3;

const VOCABULARY: &str = "a custom meta-schema's $vocabulary";

/// What one draft's run found.
pub struct Outcome {
    pub draft: &'static str,
    pub cases: usize,
    pub passed: usize,
    pub listed: usize,
    /// `file / group / case: expected valid, got invalid (message)`, for each failure.
    pub failures: Vec<String>,
}

impl Outcome {
    pub fn summary(&self) -> String {
        format!(
            "{}: {} of {} cases pass, {} listed as refused by design ({:.1}%), {} fail",
            self.draft,
            self.passed,
            self.cases,
            self.listed,
            self.listed as f64 * 100.0 / self.cases as f64,
            self.failures.len()
        )
    }
}

/// Runs every case of `draft` ("draft2020-12" or "draft7") through `validate(schema, data)`,
/// which answers whether the data is valid (or why the schema was refused).
pub fn run(
    draft: &'static str,
    validate: &dyn Fn(&Value, &Value) -> Result<bool, String>,
) -> Outcome {
    let files = match draft {
        "draft2020-12" => DRAFT2020_12,
        "draft7" => DRAFT7,
        other => panic!("no such draft: {other}"),
    };
    let mut out = Outcome {
        draft,
        cases: 0,
        passed: 0,
        listed: 0,
        failures: Vec::new(),
    };
    for (file, text) in files {
        let groups: Value = serde_json::from_str(text).expect("suite file is JSON");
        for group in groups.as_array().expect("suite file is an array") {
            let gdesc = group["description"].as_str().unwrap_or_default();
            for case in group["tests"].as_array().expect("group has tests") {
                let cdesc = case["description"].as_str().unwrap_or_default();
                out.cases += 1;
                let listed = LISTED.iter().any(|&(d, f, g, _)| {
                    d == draft
                        && f == *file
                        && (g.is_empty() || g == gdesc || g == format!("{gdesc} / {cdesc}"))
                });
                let want = case["valid"].as_bool().expect("case has valid");
                let result = validate(&group["schema"], &case["data"]);
                if listed {
                    match result {
                        Ok(got) if got == want => out.failures.push(format!(
                            "{file} / {gdesc} / {cdesc}: listed, but passes: take it off the list"
                        )),
                        _ => out.listed += 1,
                    }
                    continue;
                }
                match result {
                    Ok(got) if got == want => out.passed += 1,
                    Ok(got) => out.failures.push(format!(
                        "{file} / {gdesc} / {cdesc}: expected {}, got {}",
                        if want { "valid" } else { "invalid" },
                        if got { "valid" } else { "invalid" },
                    )),
                    Err(e) => out
                        .failures
                        .push(format!("{file} / {gdesc} / {cdesc}: schema refused: {e}")),
                }
            }
        }
    }
    // The list may hold at most LISTED_PERCENT_MAX of a draft's cases.
    if out.listed * 100 > out.cases * LISTED_PERCENT_MAX {
        out.failures.push(format!(
            "{} of {} cases listed, more than {LISTED_PERCENT_MAX}%",
            out.listed, out.cases
        ));
    }
    out
}

/// The documents a draft's cases may refer to (the suite's `remotes/`, the draft's
/// meta-schemas), parsed, by their URIs: what a runner gives the validator as known
/// documents, as the suite's README asks of every implementation.
pub fn documents(draft: &str) -> Vec<(String, Value)> {
    let files = match draft {
        "draft2020-12" => DRAFT2020_12_DOCUMENTS,
        "draft7" => DRAFT7_DOCUMENTS,
        other => panic!("no such draft: {other}"),
    };
    files
        .iter()
        .map(|(uri, text)| {
            (
                uri.to_string(),
                serde_json::from_str(text).expect("a document is JSON"),
            )
        })
        .collect()
}
