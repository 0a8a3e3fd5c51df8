//! Small text helpers the core and its shells share.

/// `parts` with `sep` between them: what `[..].join(sep)` gives, from a plain loop. The
/// standard library's `join` is ~0.6 KB of wasm per element type, for lists of a few names.
pub fn join<S: AsRef<str>>(parts: &[S], sep: &str) -> String {
    let mut out = String::new();
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        out.push_str(part.as_ref());
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn joins_as_the_standard_join() {
        let empty: [&str; 0] = [];
        assert_eq!(super::join(&empty, ", "), "");
        assert_eq!(super::join(&["a"], ", "), "a");
        assert_eq!(
            super::join(&["a", "", "é"], ", "),
            ["a", "", "é"].join(", ")
        );
        let owned = vec!["x".to_string(), "y".to_string()];
        assert_eq!(super::join(&owned, ","), owned.join(","));
    }
}
