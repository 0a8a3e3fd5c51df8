//! What a person reads next to a control: its accessible name from `aria-labelledby`,
//! `aria-label` or `<label>` (for= or wrapping); a group's legend. `placeholder` and `title`
//! are not labels (a placeholder is gone once the field holds text, a title shows only on
//! hover): a field without a label is unlabelled, and the model names it by its ref and type. Only
//! elements inside the tool's root lend a label: an answer never depends on what lies outside.
//! Text taken from elements is only the text on screen ([`visible_text`]).

use super::dom::{cast, closest, node_get};
use super::js::{get, proto_call, string_prop};
use wasm_bindgen::JsValue;
use web_sys::{Element, HtmlInputElement};

use super::scope::{attr, contains, query_all};
use super::visible;

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

/// Elements whose text is not read into a label: the controls a label wraps (a `<select>`
/// inside a label would otherwise lend it every option), and what is never rendered as text.
const NOT_TEXT: &str = "input,select,textarea,button,script,style,template,noscript,iframe,object";

/// Elements that end a line of text (laid out as blocks by default, or a line break).
const BLOCK: &str = "address,article,aside,blockquote,br,dd,details,div,dl,dt,fieldset,figcaption,\
    figure,footer,form,h1,h2,h3,h4,h5,h6,header,hr,li,main,nav,ol,p,pre,section,summary,table,td,\
    th,tr,ul";

/// How deep [`visible_text`] walks.
const DEPTH_MAX: usize = 32;

/// The text of `el` a sighted person sees: its text nodes that pass the visibility rule
/// ([`super::visible::text`]), leaving out the controls it wraps and every subtree that is not
/// rendered. Text hidden inside a label never reaches the model.
pub(crate) fn visible_text(el: &Element) -> String {
    let mut out = String::new();
    if visible::subtree(el) {
        walk(el, &mut out, 0);
    }
    clean_text(&out)
}

fn walk(el: &Element, out: &mut String, depth: usize) {
    let children = get(el, "childNodes");
    for node in super::dom::items(&children).iter() {
        match super::js::number_prop(&node, "nodeType") as u32 {
            // A text node: its text, between words.
            3 if visible::text(&node, el) => {
                out.push_str(&string_prop(&node, "data"));
            }
            1 if depth < DEPTH_MAX => {
                let Some(child) = cast::<Element>(node, "Element") else {
                    continue;
                };
                if !super::dom::matches(&child, NOT_TEXT).unwrap_or(true)
                    && visible::subtree(&child)
                {
                    // Words in two blocks are two words; inline elements split none.
                    let block = super::dom::matches(&child, BLOCK).unwrap_or(false);
                    if block {
                        out.push(' ');
                    }
                    walk(&child, out, depth + 1);
                    if block {
                        out.push(' ');
                    }
                }
            }
            _ => {}
        }
    }
}

/// The text of a label: what of it is on screen, without the controls it wraps.
fn label_text(label: &Element) -> String {
    visible_text(label)
}

/// The accessible name of a control, as assistive technology computes it in the usual cases:
/// `aria-labelledby`, `aria-label`, then `<label>` (for= or wrapping); empty when none gives
/// one (never the placeholder or title). Labelling elements outside `root` are passed over.
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
                let t = visible_text(&l);
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
            let l = visible_text(&legend);
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
