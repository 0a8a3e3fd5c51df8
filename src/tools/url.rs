//! Which URLs the tools may go to: http(s) only, the page's own origin plus the app's
//! allowlist, no credentials. The browser's own `URL` parser decides what a string means, so
//! every spelling of `javascript:` or of another host is judged by what it really is.

use super::js::{get, string_prop};
use client_tools_core::quote::Quoted;
use wasm_bindgen::{JsCast, JsValue};

/// Longest URL an agent may pass.
pub(crate) const URL_MAX: usize = 2048;

/// The judgement on a URL.
pub(crate) enum Target {
    /// The page's own origin.
    SameOrigin(web_sys::Url),
    /// Another origin the app allowed.
    Allowed(web_sys::Url),
    /// Not allowed; the text says why (it reads after "the URL ").
    Refused(String),
}

/// `new URL(input, base)`, `None` when the browser's parser refuses it.
pub(crate) fn parse(input: &str, base: Option<&str>) -> Option<web_sys::Url> {
    let input = JsValue::from_str(input);
    let base = base.map(JsValue::from_str).unwrap_or_default();
    let url = super::dom::construct("URL", &[&input, &base]).ok()?;
    Some(url.unchecked_into())
}

/// Refuses, before parsing, what no honest link contains: control characters (the parser
/// would silently drop tabs and newlines, `java\tscript:`), spaces at either end, backslashes
/// (the parser reads `/\host` as `//host`), and huge or empty strings.
pub(crate) fn precheck(input: &str) -> Result<(), String> {
    if input.is_empty() {
        return Err("is empty".into());
    }
    let n = input.chars().count();
    if n > URL_MAX {
        return Err(format!("is {n} characters long; at most {URL_MAX}"));
    }
    if input.chars().any(char::is_control) {
        return Err("contains control characters (tabs, line breaks or similar)".into());
    }
    if input.trim() != input {
        return Err("starts or ends with spaces".into());
    }
    if input.bytes().any(|b| b == b'\\') {
        return Err("contains a backslash, which browsers read as a slash".into());
    }
    Ok(())
}

/// Parses `input` against the page's address and judges it. `allow` holds origins as
/// `URL.origin` spells them.
pub(crate) fn check_target(input: &str, allow: &[String]) -> Target {
    if let Err(why) = precheck(input) {
        return Target::Refused(why);
    }
    let Some(here) =
        super::dom::window().and_then(|w| get(&get(&w, "location"), "href").as_string())
    else {
        return Target::Refused("cannot be judged: the page has no location".into());
    };
    let Some(url) = parse(input, Some(&here)) else {
        return Target::Refused(format!("{} is not a valid URL", Quoted(input)));
    };
    let scheme = string_prop(&url, "protocol");
    if scheme != "http:" && scheme != "https:" {
        return Target::Refused(format!(
            "uses the {scheme} scheme; only http and https pages are opened"
        ));
    }
    if !string_prop(&url, "username").is_empty() || !string_prop(&url, "password").is_empty() {
        return Target::Refused(
            "carries a user name or password (user@host), a common disguise for another site"
                .into(),
        );
    }
    let origin = string_prop(&url, "origin");
    let own = parse(&here, None)
        .map(|u| string_prop(&u, "origin"))
        .unwrap_or_default();
    if origin == own {
        Target::SameOrigin(url)
    } else if allow.contains(&origin) {
        Target::Allowed(url)
    } else {
        Target::Refused(format!(
            "leads to another site ({origin}), which the app did not allow"
        ))
    }
}

/// A URL without its query and fragment, for an answer: a form's action that defaults to the
/// page's address carries whatever that address does (a reset token, personal data), which the
/// model need not read. `None` when `url` does not parse.
pub(crate) fn without_query(url: &str) -> Option<String> {
    let url = parse(url, None)?;
    let empty = JsValue::from_str("");
    super::js::set(&url, "search", &empty);
    super::js::set(&url, "hash", &empty);
    Some(string_prop(&url, "href"))
}

/// A form's destination as the model reads it: "this page" (the page's own address, whatever
/// its query), "this site" (another path of the page's origin) or the other origin; with
/// `show_path` (the app's `showActionPath`), the address without its query and fragment. A
/// path can hold a secret (`/reset-password/RST-…`) the model need not read.
pub(crate) fn told(url: &str, show_path: bool) -> String {
    let Some(there) = without_query(url) else {
        return "an address that does not parse".into();
    };
    if show_path {
        return there;
    }
    let here = super::dom::window()
        .and_then(|w| get(&get(&w, "location"), "href").as_string())
        .and_then(|h| without_query(&h));
    let origin = |u: &str| parse(u, None).map(|u| string_prop(&u, "origin"));
    match here {
        Some(h) if h == there => "this page".into(),
        Some(h) if origin(&h).is_some() && origin(&h) == origin(&there) => "this site".into(),
        _ => origin(&there).unwrap_or_default(),
    }
}

/// The path of `url` as the model wrote it in `input`: the resolved path, with the query and
/// the fragment only when `input` has them. (`#top` resolves against the page's address, whose
/// query is the page's, not the model's.)
pub(crate) fn shown_path(input: &str, url: &web_sys::Url) -> String {
    let (before_hash, has_hash) = match input.bytes().position(|b| b == b'#') {
        Some(i) => (&input[..i], true),
        None => (input, false),
    };
    let mut out = string_prop(url, "pathname");
    if before_hash.bytes().any(|b| b == b'?') {
        out.push_str(&string_prop(url, "search"));
    }
    if has_hash {
        out.push_str(&string_prop(url, "hash"));
    }
    out
}

/// The scheme of a value that would run code or smuggle content if the app used it as a link
/// (`javascript:`, `data:`, …), as the browser's parser reads it; `None` for anything else.
pub(crate) fn script_scheme(value: &str) -> Option<String> {
    let url = parse(value, None)?;
    let scheme = string_prop(&url, "protocol");
    matches!(
        scheme.as_str(),
        "javascript:" | "data:" | "vbscript:" | "blob:" | "file:"
    )
    .then_some(scheme)
}

#[cfg(test)]
mod tests {
    use super::precheck;

    #[test]
    fn precheck_refuses_what_the_parser_would_quietly_rewrite() {
        for bad in [
            "",
            "java\tscript:alert(1)",
            "\u{0}javascript:x",
            " /a",
            "/a\n",
            "/\\evil.example",
            "/a\u{7f}",
        ] {
            assert!(precheck(bad).is_err(), "{bad:?} passed");
        }
        assert!(precheck(&"a".repeat(super::URL_MAX + 1))
            .unwrap_err()
            .contains("at most"));
        for good in [
            "/orders/42",
            "https://app.example/x?q=a b",
            "#top",
            "?page=2",
        ] {
            assert!(precheck(good).is_ok(), "{good:?} refused");
        }
    }
}
