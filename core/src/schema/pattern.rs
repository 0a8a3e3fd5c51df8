//! `pattern` and `patternProperties`: ECMA-262 regular expressions, run by the host's engine,
//! and a bound on what one run may cost, worked out before it runs.
//!
//! The engine is the page's own `RegExp` in a wasm build with the `host-regex` feature (the
//! wasm SDK defines `client_tools_core_host_pattern`, found by the linker as the JSON hook
//! is, see `crate::json`), and natively the `regress` crate, an ECMAScript regex engine. A
//! pattern is compiled with the `u` flag (as JSON Schema asks), and without it when it only
//! compiles that way (an app's pattern written for a plain `RegExp`); it is not anchored.
//!
//! Both engines backtrack and neither can be stopped once running, so the time a pattern
//! may take is capped before it runs: from the pattern's structure, its worst case on a
//! string of n characters is bounded by `(n + 1)^e` steps (e grows with each quantifier whose
//! stopping point the next character does not decide, and by one when the pattern is not
//! anchored with `^`), or by `b^n` for a pattern that can backtrack exponentially (a
//! quantifier over a body that can match the same text in more than one way, as
//! `^(a+)+$`; a backreference). A string is run only while the bounds of the runs of one
//! check add up to at most [`PATTERN_COST_MAX`]; past it the call is answered that the
//! string is too long for the pattern, naming the longest one the pattern may be run on.

use super::bound::Shape;
use super::PATTERN_COST_MAX;

#[cfg(all(feature = "host-regex", target_family = "wasm"))]
extern "Rust" {
    fn client_tools_core_host_pattern(pattern: &str, text: Option<&str>) -> Result<bool, String>;
}

#[cfg(not(any(
    all(feature = "host-regex", target_family = "wasm"),
    feature = "regress"
)))]
compile_error!("client-tools-core needs the `regress` feature, or `host-regex` in a wasm build");

/// Compiles `pattern` and, given a text, says whether the pattern matches somewhere in it.
pub(super) fn engine(pattern: &str, text: Option<&str>) -> Result<bool, String> {
    #[cfg(all(feature = "host-regex", target_family = "wasm"))]
    // SAFETY: the host defines it with this signature, as the module docs ask; a build
    // without it does not load.
    return unsafe { client_tools_core_host_pattern(pattern, text) };
    #[cfg(not(all(feature = "host-regex", target_family = "wasm")))]
    {
        let re = regress::Regex::with_flags(pattern, "u")
            .or_else(|_| regress::Regex::with_flags(pattern, ""))
            .map_err(|e| e.to_string())?;
        Ok(text.is_some_and(|t| re.find(t).is_some()))
    }
}

/// Whether `pattern` is a regular expression the engine compiles (for the declaration check).
pub(super) fn check(pattern: &str) -> Result<(), String> {
    engine(pattern, None)
        .map(|_| ())
        .map_err(|e| format!("not an ECMA-262 regular expression: {e}"))
}

/// Whether `pattern` matches `text`, after its bound is added to `cost`; an error says why
/// the string was not run.
pub(super) fn matches(pattern: &str, text: &str, cost: &mut u64) -> Result<bool, String> {
    let n = text.chars().count() as u64;
    let shape = Shape::of(pattern);
    let bound = shape.bound(n);
    if bound > PATTERN_COST_MAX - *cost {
        let why = match shape {
            Shape::Exponential(_) => "it can backtrack exponentially".to_owned(),
            Shape::Power(e) => format!("its backtracking can grow as the length to the power {e}"),
        };
        return Err(format!(
            "a string of {n} characters is more than the pattern {pattern} is run on: at most \
             {} ({why}; at most {PATTERN_COST_MAX} steps for the patterns of one call)",
            shape.longest(PATTERN_COST_MAX)
        ));
    }
    *cost += bound;
    engine(pattern, Some(text))
}
