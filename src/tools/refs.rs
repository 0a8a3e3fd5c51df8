//! Element refs (`e1`, `e2`, …): how `read_page` and `read_table` name what they show, and how
//! `click`, `highlight`, `read_table`, `read_page`'s `within` and the form tools are told which
//! element to act on. A ref is a number the SDK counts up as it first hands an element out, so
//! it says nothing of the page; the element is found again through the SDK's own `WeakMap` and
//! `WeakRef`s, never through an attribute or property the page could read or forge. An element
//! keeps its ref while it lives.
//!
//! Each time a ref is handed out the SDK notes the element's role and name (`roles`), in its
//! own table: the role as its word, the name only as a hash (the table keeps no page text). On
//! use, in this order, the ref must be one the SDK handed out, name an element still in the
//! page and inside one of the tool's roots, and that element must have the role it had; then,
//! when a person sees it now (the visibility rule's element test), the name it had. Else it is
//! stale, and the answer reads the same whichever check failed. The name is compared only for
//! an element seen now because a name is text on screen: an element hidden since it was read
//! has none, and the tool then refuses it for what it is (`not visible on the page: hidden`),
//! not as stale.

use std::cell::RefCell;
use std::hash::{Hash, Hasher};

use client_tools_core::quote::Quoted;
use wasm_bindgen::JsValue;
use web_sys::Element;

use super::dom::{cast, construct};
use super::js::proto_call;
use super::roles::{name, role, Role};
use super::scope::{check_locator, connected, contains};
use super::visible;

/// What an element was when its ref was last handed out.
struct Issued {
    /// A `WeakRef` of the element.
    element: JsValue,
    /// Its role's word.
    role: String,
    /// A hash of its name.
    name: u64,
}

#[derive(Default)]
struct Registry {
    /// Element → its ref number.
    numbers: Option<js_sys::WeakMap>,
    /// What ref number `n` was handed out for, at `n - 1`.
    issued: Vec<Issued>,
}

thread_local! {
    static REFS: RefCell<Registry> = RefCell::default();
}

/// The hash of a name kept in the registry.
fn hash(name: &str) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    name.hash(&mut h);
    h.finish()
}

/// An element as a tool hands it out: its ref, and the name the ref was noted with.
pub(crate) struct Handed {
    pub r: String,
    pub name: String,
    /// Whether a person reads the name on screen (not when it comes from `aria-label`).
    pub shown: bool,
}

/// The ref of `el` (inside `root`, of role `role`): the one it was given before, else the next
/// number. Notes its role and name as they are now, which the ref's use compares.
pub(crate) fn issue(el: &Element, root: &Element, role: &Role) -> Handed {
    let (name, shown) = name(el, root, role);
    let n = REFS.with(|r| {
        let mut r = r.borrow_mut();
        let map = r.numbers.get_or_insert_with(js_sys::WeakMap::new).clone();
        let now = |element: JsValue| Issued {
            element,
            role: role.word.clone(),
            name: hash(&name),
        };
        if let Some(n) = map.get(el).as_f64() {
            let n = n as usize;
            if let Some(i) = r.issued.get_mut(n - 1) {
                let element = std::mem::take(&mut i.element);
                *i = now(element);
            }
            return n;
        }
        let Ok(weak) = construct("WeakRef", &[el]) else {
            return 0;
        };
        r.issued.push(now(weak));
        let n = r.issued.len();
        map.set(el, &JsValue::from_f64(n as f64));
        n
    });
    Handed {
        r: format!("e{n}"),
        name,
        shown,
    }
}

/// The element `r` names and the one of `roots` it lies in, when it is still in the page
/// inside one of them, has the role it had and, when a person sees it, the name it had.
pub(crate) fn resolve(r: &str, roots: &[Element]) -> Result<(Element, Element), String> {
    check_locator("ref", r)?;
    let n: usize = r
        .strip_prefix('e')
        .filter(|d| d.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|d| d.parse().ok())
        .unwrap_or(0);
    let noted = REFS.with(|refs| {
        let refs = refs.borrow();
        let i = refs.issued.get(n.checked_sub(1)?)?;
        Some((i.element.clone(), i.role.clone(), i.name))
    });
    noted
        .and_then(|(weak, was_role, was_name)| {
            let el = proto_call("WeakRef", "deref", &weak, &[]).ok()?;
            let el = cast::<Element>(el, "Element").filter(connected)?;
            let root = roots.iter().find(|root| contains(root, &el))?;
            let now = role(&el).filter(|now| now.word == was_role)?;
            let seen = visible::choice(&el).is_ok();
            if seen && hash(&name(&el, root, &now).0) != was_name {
                return None;
            }
            Some((el, root.clone()))
        })
        .ok_or_else(|| {
            format!(
                "the ref {} is stale or unknown: read the page again",
                Quoted(r)
            )
        })
}
