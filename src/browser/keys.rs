//! Unknown option keys: an option object with a key the SDK does not know is refused, naming
//! the key and the nearest known one (`whenHiden: unknown option; did you mean whenHidden?`),
//! because a typo'd option silently ignored is a bug the app never sees.

use wasm_bindgen::JsValue;

/// Checks `obj`'s own enumerable string keys against `known`. `prefix` goes before the key in
/// the message (`"tools[0]."`, `"options."`, or `""` at the top level). Keys that cannot be
/// read (a Proxy's `ownKeys` trap throws, a revoked Proxy) are refused, naming the throw.
pub(crate) fn check(obj: &JsValue, known: &[&str], prefix: &str) -> Result<(), String> {
    if !obj.is_object() {
        return Ok(());
    }
    let keys = crate::js::keys(obj).map_err(|e| {
        let at = prefix.strip_suffix('.').unwrap_or("options");
        format!(
            "{}: its keys cannot be read ({})",
            if at.is_empty() { "options" } else { at },
            crate::js::error_text(&e)
        )
    })?;
    for key in keys.iter() {
        let Some(key) = key.as_string() else { continue };
        if !known.contains(&key.as_str()) {
            return Err(unknown(&key, known, prefix));
        }
    }
    Ok(())
}

/// The options object of an entry point, named `what` in messages (`"options"`): absent is
/// none; anything but an object, or an object with a key not in `known`, is refused with an
/// `invalid_option` `Error`.
#[cfg(feature = "js-api")]
pub(crate) fn options(v: &JsValue, known: &[&str], what: &str) -> Result<(), JsValue> {
    if v.is_undefined() || v.is_null() {
        return Ok(());
    }
    if !v.is_object() {
        return Err(crate::js::invalid(&format!(
            "{what}: must be an object, got {}",
            crate::js::describe(v)
        )));
    }
    check(v, known, &format!("{what}.")).map_err(|e| crate::js::invalid(&e))
}

/// The message for an unknown key: the nearest known key if one is close, else the list.
pub(crate) fn unknown(key: &str, known: &[&str], prefix: &str) -> String {
    match nearest(key, known) {
        Some(near) => format!("{prefix}{key}: unknown option; did you mean {near}?"),
        None => format!(
            "{prefix}{key}: unknown option; the options are {}",
            client_tools_core::text::join(known, ", ")
        ),
    }
}

/// The known key closest to `key` (case-insensitive edit distance, transpositions counted
/// as one), if it is close enough to be a typo: at most 2 edits, or a third of the key.
pub(crate) fn nearest<'a>(key: &str, known: &[&'a str]) -> Option<&'a str> {
    let key = lower_chars(key);
    let limit = (key.len() / 3).max(2);
    // The first of the closest, as plain loops (iterator chains cost a copy each in the .wasm).
    let mut best: Option<(usize, &'a str)> = None;
    for k in known {
        let d = distance(&key, &lower_chars(k));
        if d <= limit && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, k));
        }
    }
    best.map(|(_, k)| k)
}

/// `s`'s characters, ASCII letters in lower case.
fn lower_chars(s: &str) -> Vec<char> {
    let mut out = Vec::with_capacity(s.len());
    for c in s.chars() {
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// Optimal string alignment distance: insertions, deletions, substitutions and adjacent
/// transpositions each cost one.
fn distance(a: &[char], b: &[char]) -> usize {
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for (i, row) in d.chunks_mut(w).enumerate() {
        row[0] = i;
    }
    for (j, cell) in d.iter_mut().take(w).enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = best;
        }
    }
    d[a.len() * w + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    const KNOWN: &[&str] = &["baseUrl", "sessionId", "token", "whenHidden", "timeoutMs"];

    #[test]
    fn a_typo_names_the_nearest_key() {
        assert_eq!(nearest("whenHiden", KNOWN), Some("whenHidden"));
        assert_eq!(nearest("baseURL", KNOWN), Some("baseUrl"));
        assert_eq!(nearest("session_id", KNOWN), Some("sessionId"));
        assert_eq!(nearest("tokne", KNOWN), Some("token"));
        assert_eq!(nearest("timeout", KNOWN), Some("timeoutMs"));
        assert_eq!(
            unknown("whenHiden", KNOWN, ""),
            "whenHiden: unknown option; did you mean whenHidden?"
        );
    }

    #[test]
    fn a_key_far_from_all_lists_them() {
        assert_eq!(nearest("color", KNOWN), None);
        assert_eq!(
            unknown("color", &["a", "b"], "options."),
            "options.color: unknown option; the options are a, b"
        );
    }
}
