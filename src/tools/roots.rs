//! Where the reading tools may see: their roots, found at each call. The app's `root` is an
//! element, a CSS selector or a list of them (a modal renders in a portal outside the app's
//! main element); a selector is the app's (trusted) and runs on the document, each element it
//! matches being a root. The roots are taken in document order, one inside another counting
//! once, so an answer lists each root's content in the order a person reads the page. Refs are
//! handed out and taken only inside them.

use client_tools_core::quote::Quoted;
use wasm_bindgen::JsValue;
use web_sys::Element;

use super::js::{document, elements, proto_call};
use super::options::{Config, RootChoice};
use super::scope::{connected, contains, root, ROOT_GONE};

/// `Node.DOCUMENT_POSITION_FOLLOWING`.
const FOLLOWING: u32 = 4;

/// Whether `b` comes after `a` in the document.
fn follows(a: &Element, b: &Element) -> bool {
    proto_call("Node", "compareDocumentPosition", a, &[b])
        .ok()
        .and_then(|v| v.as_f64())
        .is_some_and(|p| p as u32 & FOLLOWING != 0)
}

/// Why no root is on the page now: the selectors that match nothing, the elements gone.
fn none_found(choices: &[RootChoice]) -> String {
    let mut selectors: Vec<String> = Vec::new();
    for c in choices {
        if let RootChoice::Selector(s) = c {
            selectors.push(Quoted(s).to_string());
        }
    }
    let listed = client_tools_core::text::join(&selectors, ", ");
    match (choices, selectors.len()) {
        ([RootChoice::Element(_)], _) => ROOT_GONE.into(),
        ([RootChoice::Selector(_)], _) => format!("no element matching {listed} is on the page now"),
        (_, 0) => "none of the tool's root elements is in the page any more".into(),
        _ if selectors.len() == choices.len() => format!(
            "none of the tool's roots is on the page now: no element matches {listed}"
        ),
        _ => format!(
            "none of the tool's roots is on the page now: no element matches {listed}, and its root elements have left the page"
        ),
    }
}

/// The tool's roots now, in document order, none inside another: the document's body when the
/// app gave none. A selector matching nothing and an element no longer in the page add no root;
/// when that leaves none, the call is refused saying so.
pub(crate) fn roots(config: &Config) -> Result<Vec<Element>, String> {
    if config.roots.is_empty() {
        return Ok(vec![root(config)?]);
    }
    let mut found: Vec<Element> = Vec::new();
    for choice in &config.roots {
        match choice {
            RootChoice::Element(el) => {
                if connected(el) {
                    found.push(el.clone());
                }
            }
            RootChoice::Selector(sel) => {
                let doc = document()?;
                let list = proto_call(
                    "Document",
                    "querySelectorAll",
                    doc.as_ref(),
                    &[&JsValue::from_str(sel)],
                )
                .map_err(|e| format!("the tool's root selector {}: {e}", Quoted(sel)))?;
                found.extend(elements(&list));
            }
        }
    }
    let mut out: Vec<Element> = Vec::new();
    for el in found {
        if out.iter().any(|r| contains(r, &el)) {
            continue;
        }
        out.retain(|r| !contains(&el, r));
        let at = out
            .iter()
            .position(|r| follows(&el, r))
            .unwrap_or(out.len());
        out.insert(at, el);
    }
    if out.is_empty() {
        return Err(none_found(&config.roots));
    }
    Ok(out)
}
