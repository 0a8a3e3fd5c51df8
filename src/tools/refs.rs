//! Element refs (`e1`, `e2`, …): how `read_table` names a table and its rows, and how
//! `highlight` (and the tools after it) are told which element to act on. A ref is a number
//! the SDK counts up as it first hands an element out, so it says nothing of the page; the
//! element is found again through the SDK's own `WeakMap` and `WeakRef`s, never through an
//! attribute or property the page could read or forge. An element keeps its ref while it
//! lives; on use the ref must still name an element in the page and inside the tool's root,
//! else it is stale, and the answer reads the same whichever of these it is.

use std::cell::RefCell;

use client_tools_core::quote::Quoted;
use wasm_bindgen::JsValue;
use web_sys::Element;

use super::dom::{cast, construct};
use super::js::proto_call;
use super::scope::{check_locator, connected, contains};

#[derive(Default)]
struct Registry {
    /// Element → its ref number.
    numbers: Option<js_sys::WeakMap>,
    /// `WeakRef`s of the elements, ref number `n` at `n - 1`.
    elements: Vec<JsValue>,
}

thread_local! {
    static REFS: RefCell<Registry> = RefCell::default();
}

/// The ref of `el`: the one it was given before, else the next number.
pub(crate) fn issue(el: &Element) -> String {
    let n = REFS.with(|r| {
        let mut r = r.borrow_mut();
        let map = r.numbers.get_or_insert_with(js_sys::WeakMap::new).clone();
        if let Some(n) = map.get(el).as_f64() {
            return n as usize;
        }
        let Ok(weak) = construct("WeakRef", &[el]) else {
            return 0;
        };
        r.elements.push(weak);
        let n = r.elements.len();
        map.set(el, &JsValue::from_f64(n as f64));
        n
    });
    format!("e{n}")
}

/// The element `r` names, when it is still in the page and inside `root`.
pub(crate) fn resolve(r: &str, root: &Element) -> Result<Element, String> {
    check_locator("ref", r)?;
    let n: usize = r
        .strip_prefix('e')
        .filter(|d| d.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|d| d.parse().ok())
        .unwrap_or(0);
    let weak = REFS.with(|refs| {
        n.checked_sub(1)
            .and_then(|i| refs.borrow().elements.get(i).cloned())
    });
    weak.and_then(|w| proto_call("WeakRef", "deref", &w, &[]).ok())
        .and_then(|v| cast::<Element>(v, "Element"))
        .filter(|el| connected(el) && contains(root, el))
        .ok_or_else(|| {
            format!(
                "the ref {} is stale or unknown: read the page again",
                Quoted(r)
            )
        })
}
