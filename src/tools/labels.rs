//! What a person reads next to a control: its accessible name from `aria-labelledby`,
//! `aria-label`, `<label>` (for= or wrapping), placeholder or title; a group's legend. Only
//! elements inside the tool's root lend a label: an answer never depends on what lies outside.

use super::dom::{cast, closest, node_get};
use super::js::{get, proto_call, string_prop};
use wasm_bindgen::JsValue;
use web_sys::{Element, HtmlInputElement};

use super::scope::{attr, contains, query_all};

/// Longest label text kept; longer text is cut.
const LABEL_MAX: usize = 120;

/// Collapses whitespace runs and trims; cuts at `LABEL_MAX` characters.
pub(crate) fn clean_text(s: &str) -> String {
    let mut out = String::new();
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    if super::text::cut_chars(&mut out, LABEL_MAX) {
        out.push('…');
    }
    out
}

/// The text of a label without the text of the controls it wraps (a `<select>` inside a label
/// would otherwise lend it every option).
fn label_text(label: &Element) -> String {
    let Ok(copy) = proto_call("Node", "cloneNode", label, &[&JsValue::TRUE]) else {
        return String::new();
    };
    let Some(copy) = cast::<Element>(copy, "Element") else {
        return String::new();
    };
    if let Ok(inner) = query_all(&copy, "input,select,textarea,button") {
        for el in inner {
            let _ = proto_call("Element", "remove", &el, &[]);
        }
    }
    clean_text(&string_prop(&copy, "textContent"))
}

/// The accessible name of a control, as assistive technology computes it in the usual cases:
/// `aria-labelledby`, `aria-label`, `<label>` (for= or wrapping), then placeholder or title.
/// Labelling elements outside `root` are passed over.
pub(crate) fn label_of(el: &Element, root: &Element) -> String {
    if let Some(ids) = attr(el, "aria-labelledby") {
        let doc = node_get("Node", "ownerDocument", el);
        let mut parts: Vec<String> = Vec::new();
        for id in ids.split_whitespace() {
            let Some(l) = doc.as_ref().and_then(|d| {
                let found = proto_call("Document", "getElementById", d, &[&JsValue::from_str(id)]);
                cast::<Element>(found.ok()?, "Element")
            }) else {
                continue;
            };
            if contains(root, &l) {
                let t = clean_text(&string_prop(&l, "textContent"));
                if !t.is_empty() {
                    parts.push(t);
                }
            }
        }
        if !parts.is_empty() {
            return clean_text(&client_tools_core::text::join(&parts, " "));
        }
    }
    if let Some(l) = attr(el, "aria-label").map(|s| clean_text(&s)) {
        if !l.is_empty() {
            return l;
        }
    }
    let labels = get(el, "labels");
    if !labels.is_undefined() && !labels.is_null() {
        let mut parts: Vec<String> = Vec::new();
        for l in super::js::elements(&labels) {
            if contains(root, &l) {
                let t = label_text(&l);
                if !t.is_empty() {
                    parts.push(t);
                }
            }
        }
        if !parts.is_empty() {
            return clean_text(&client_tools_core::text::join(&parts, " "));
        }
    }
    for a in ["placeholder", "title"] {
        if let Some(t) = attr(el, a).map(|s| clean_text(&s)) {
            if !t.is_empty() {
                return t;
            }
        }
    }
    String::new()
}

/// The label of a group of radio buttons or checkboxes, given its first one: its fieldset's
/// legend or `role=radiogroup` label (inside `root`), else the name.
pub(crate) fn group_label(first: &Element, name: &str, root: &Element) -> String {
    if let Some(group) =
        closest(first, "[role=radiogroup],[role=group]").filter(|g| contains(root, g))
    {
        let l = label_of(&group, root);
        if !l.is_empty() {
            return l;
        }
    }
    if let Some(fs) = closest(first, "fieldset").filter(|f| contains(root, f)) {
        if let Some(legend) = query_all(&fs, "legend")
            .ok()
            .and_then(|v| v.into_iter().next())
        {
            let l = clean_text(&string_prop(&legend, "textContent"));
            if !l.is_empty() {
                return l;
            }
        }
    }
    name.into()
}

/// The label of one radio button or checkbox of a group (its own `<label>`), else its value.
pub(crate) fn option_label(input: &HtmlInputElement, root: &Element) -> String {
    let l = label_of(input, root);
    if l.is_empty() {
        string_prop(input, "value")
    } else {
        l
    }
}
