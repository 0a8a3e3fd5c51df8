//! The JSON-Schema-Test-Suite's cases (draft2020-12 and draft7, every top-level file; see
//! README.md beside this file) and a runner that feeds each to a validator and counts.
//! Shared by the native test (core/tests/schema_suite.rs) and the browser one
//! (tests/web_schema_suite.rs), which include this file by path.

use serde_json::Value;

include!("files.rs");

/// The cases not run, by file, group and case description (an empty case description lists
/// the whole group), with the reason. Each is refused by design: the validator resolves no
/// remote `$ref` (a tool's schema is checked alone: nothing is fetched) and knows no custom
/// vocabulary.
pub const LISTED: &[(&str, &str, &str, &str, &str)] = &[
    // (draft, file, group, case, reason)
];

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
            "{}: {} of {} cases pass, {} listed (not run), {} fail",
            self.draft,
            self.passed,
            self.cases,
            self.listed,
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
                let listed = LISTED.iter().any(|&(d, f, g, c, _)| {
                    d == draft && f == *file && g == gdesc && (c.is_empty() || c == cdesc)
                });
                if listed {
                    out.listed += 1;
                    continue;
                }
                let want = case["valid"].as_bool().expect("case has valid");
                match validate(&group["schema"], &case["data"]) {
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
    out
}
