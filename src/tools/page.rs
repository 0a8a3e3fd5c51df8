//! The read-page tool: what a sighted person sees inside the root, as an outline of roles,
//! names and states, one line per element, each control, field, table and container with a
//! ref the other tools take (`- button "Archive" [ref=e7] [disabled]`). Only what the
//! visibility rule lets count is read: hidden subtrees are skipped, text is the text on
//! screen, controls and fields must pass the element test (covered ones included). No field's
//! value is shown (only `[filled]`), no link's query or fragment, no attribute, no geometry.

use client_tools_core::quote::Quoted;
use serde_json::Value;
use wasm_bindgen::JsValue;
use web_sys::Element;

use super::dom::{cast, matches};
use super::js::{get, ok_result, proto_get, string_prop};
use super::labels::{clean_text, visible_text};
use super::options::Config;
use super::roles::{role, Kind, Role, FIELDS, ROWS};
use super::scope::{attr, check_locator, query_all};
use super::{json_object, refs, visible};

/// Longest outline; past it the answer says `truncated` and how to read less.
const CHARS_MAX: usize = 12_000;
/// How deep the walk goes.
const DEPTH_MAX: usize = 64;
/// What the walk shows as its own line or descends into; an element with none of these inside
/// is read as one run of text.
const STRUCTURE: &str = "a[href],button,input,select,textarea,summary,table,iframe,h1,h2,h3,h4,h5,h6,[role],[contenteditable],form,dialog,ul,ol,nav,main,section";

struct Outline {
    /// The root being read: labels come from inside it only.
    root: Element,
    lines: Vec<String>,
    chars: usize,
    focused: JsValue,
    query: Option<String>,
    truncated: bool,
}

impl Outline {
    fn push(&mut self, depth: usize, line: String, el: Option<&Element>) {
        if self.truncated {
            return;
        }
        if let Some(q) = &self.query {
            if !super::js::lower(&line).contains(q.as_str()) {
                return;
            }
        }
        let mut line = format!("{}- {line}", "  ".repeat(depth));
        if el.is_some_and(|e| js_sys::Object::is(e, &self.focused)) {
            line.push_str(" [focused]");
        }
        if self.chars + line.len() > CHARS_MAX {
            self.truncated = true;
            return;
        }
        self.chars += line.len() + 1;
        self.lines.push(line);
    }
}

/// `role "name" [ref=eN]`, the name the ref was noted with, and whether it shows on screen.
fn named(el: &Element, role: &Role, o: &Outline) -> (String, bool) {
    let h = refs::issue(el, &o.root, role);
    let line = if h.name.is_empty() {
        format!("{} [ref={}]", role.word, h.r)
    } else {
        format!("{} {} [ref={}]", role.word, Quoted(&h.name), h.r)
    };
    (line, h.shown)
}

/// Where a link leads, as the model may read it: a path of this site, another origin, never
/// a query or fragment.
fn destination(el: &Element) -> String {
    let Some(url) = super::url::parse(&string_prop(el, "href"), None) else {
        return String::new();
    };
    let scheme = string_prop(&url, "protocol");
    if scheme != "http:" && scheme != "https:" {
        return format!(" -> {scheme}");
    }
    let here = super::dom::window()
        .map(|w| string_prop(&get(&w, "location"), "origin"))
        .unwrap_or_default();
    let origin = string_prop(&url, "origin");
    if origin == here {
        format!(" -> {}", string_prop(&url, "pathname"))
    } else {
        format!(" -> {origin}")
    }
}

/// One element's line, if it has one of its own, and whether the walk stops there.
fn line_of(el: &Element, o: &Outline) -> Option<(String, bool)> {
    let tag = super::js::lower(&string_prop(el, "tagName"));
    let is = |sel: &str| matches(el, sel) == Ok(true);
    if is("h1,h2,h3,h4,h5,h6,[role=heading]") {
        let mut line = format!("heading {}", Quoted(&visible_text(el)));
        if let Some(level) = tag.strip_prefix('h') {
            line.push_str(&format!(" [level={level}]"));
        }
        return Some((line, true));
    }
    if is("iframe") {
        let title = attr(el, "title")
            .map(|t| clean_text(&t))
            .unwrap_or_default();
        return Some((format!("iframe {} (not read)", Quoted(&title)), true));
    }
    let role = role(el)?;
    match role.kind {
        Kind::Table => {
            let rows = query_all(el, ROWS).map(|r| r.len()).unwrap_or(0);
            let (line, _) = named(el, &role, o);
            Some((format!("{line} ({rows} rows: read_table reads them)"), true))
        }
        Kind::Control | Kind::Field => {
            if visible::choice(el).is_err() {
                return Some((String::new(), true));
            }
            let (line, shown) = named(el, &role, o);
            let mut line = state(el, line);
            if !shown {
                line.push_str(" [name not shown on screen]");
            }
            if role.word == "link" {
                line.push_str(&destination(el));
            }
            Some((line, true))
        }
        Kind::Container => Some((named(el, &role, o).0, false)),
        // A row outside a table's summary is read as what it holds.
        Kind::Row => None,
    }
}

/// A control's or field's state: disabled, checked, filled (never its value).
fn state(el: &Element, mut line: String) -> String {
    if matches(el, ":disabled,[aria-disabled=true]") == Ok(true) {
        line.push_str(" [disabled]");
    }
    if matches(
        el,
        ":checked,[aria-checked=true],[aria-selected=true],[aria-pressed=true]",
    ) == Ok(true)
    {
        line.push_str(" [checked]");
    }
    if matches(el, FIELDS) == Ok(true)
        && matches(el, "input[type=checkbox],input[type=radio]") != Ok(true)
    {
        let filled = !get(el, "value").as_string().unwrap_or_default().is_empty()
            || (get(el, "value").is_undefined()
                && !string_prop(el, "textContent").trim().is_empty());
        line.push_str(if filled { " [filled]" } else { " [empty]" });
    }
    line
}

fn walk(el: &Element, o: &mut Outline, depth: usize, level: usize) {
    if o.truncated || level > DEPTH_MAX || !visible::subtree(el) {
        return;
    }
    let mut depth = depth;
    if level > 0 {
        match line_of(el, o) {
            Some((line, stop)) => {
                if !line.is_empty() {
                    o.push(depth, line, Some(el));
                }
                if stop {
                    return;
                }
                depth += 1;
            }
            None if query_all(el, STRUCTURE).is_ok_and(|s| s.is_empty()) => {
                let text = visible_text(el);
                if !text.is_empty() {
                    o.push(depth, format!("text {}", Quoted(&text)), Some(el));
                }
                return;
            }
            None => {}
        }
    }
    // An open shadow root stands for the element's children.
    let shadow = proto_get("Element", "shadowRoot", el);
    let parent: JsValue = if shadow.is_object() {
        shadow
    } else {
        el.into()
    };
    let mut text = String::new();
    for node in super::dom::items(&get(&parent, "childNodes")).iter() {
        if super::js::number_prop(&node, "nodeType") as u32 == 3 {
            if visible::text(&node, el) {
                text.push_str(&string_prop(&node, "data"));
            }
            continue;
        }
        let Some(child) = cast::<Element>(node, "Element") else {
            continue;
        };
        if matches(&child, "script,style,template,noscript") == Ok(true) {
            continue;
        }
        let t = clean_text(&std::mem::take(&mut text));
        if !t.is_empty() {
            o.push(depth, format!("text {}", Quoted(&t)), None);
        }
        walk(&child, o, depth, level + 1);
    }
    let t = clean_text(&text);
    if !t.is_empty() {
        o.push(depth, format!("text {}", Quoted(&t)), None);
    }
}

/// Runs read_page: `within` is a ref to read one subtree; `query` keeps the lines holding it.
pub(crate) fn run(
    config: &Config,
    within: Option<&str>,
    query: Option<&str>,
) -> Result<JsValue, String> {
    let roots = super::roots::roots(config)?;
    let starts = match within {
        Some(r) => vec![refs::resolve(r, &roots)?],
        None => roots.into_iter().map(|r| (r.clone(), r)).collect(),
    };
    if let Some(q) = query {
        check_locator("query", q)?;
    }
    let doc = super::js::document()?;
    let mut o = Outline {
        root: starts[0].1.clone(),
        lines: Vec::new(),
        chars: 0,
        focused: proto_get("Document", "activeElement", &doc),
        query: query.map(|q| super::js::lower(q.trim())),
        truncated: false,
    };
    // Each root's content in document order (or the one subtree `within` names).
    for (start, root) in starts {
        o.root = root;
        walk(&start, &mut o, 0, 0);
    }
    let mut out = vec![(
        "page",
        Value::String(client_tools_core::text::join(&o.lines, "\n")),
    )];
    if o.truncated {
        out.push(("truncated", true.into()));
        out.push((
            "hint",
            "the page is longer: pass within (a ref above) or query to read less".into(),
        ));
    }
    Ok(ok_result(&json_object(&mut out)))
}
