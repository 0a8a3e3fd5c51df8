//! What the reading tools call an element: its role (`button`, `link`, `textbox`, `table`,
//! `row`, `list`…) and its name, computed in one place. `read_page` shows them, `read_table`
//! shows the names of tables and controls, and a ref records both when it is handed out and
//! compares them when it is used (`refs`): the same function on both sides, so a ref is stale
//! exactly when what a person would call the element has changed.

use web_sys::Element;

use super::dom::matches;
use super::js::{lower, string_prop};
use super::labels::{clean_text, label_of, visible_text};
use super::scope::{attr, query_all};

/// What `click` presses: buttons, links, `<summary>`, and elements with such a role.
pub(crate) const CLICKABLE: &str = "button,a[href],summary,input[type=button],input[type=submit],input[type=reset],input[type=image],[role=button],[role=link],[role=tab],[role=menuitem],[role=menuitemcheckbox],[role=menuitemradio],[role=switch]";
/// Fields, by the role a person knows them by.
pub(crate) const FIELDS: &str = "input:not([type=hidden]):not([type=button]):not([type=submit]):not([type=reset]):not([type=image]),select,textarea,[contenteditable=true],[contenteditable=\"\"]";
/// Containers `read_page` shows as a line of their own, with what they hold indented under them.
pub(crate) const CONTAINERS: &str =
    "form,dialog,[role=dialog],ul,ol,nav,main,section[aria-label],section[aria-labelledby]";
/// What counts as a table and as a row (HTML and ARIA grids).
pub(crate) const TABLES: &str = "table,[role=table],[role=grid],[role=treegrid]";
pub(crate) const ROWS: &str = "tr,[role=row]";

/// The kinds of element a ref names; each has its way to a name.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Named by its caption.
    Table,
    /// A button, link, tab or menu item: named by its text on screen.
    Control,
    /// Named by its label.
    Field,
    /// A form, dialog, list, navigation…: named by its label.
    Container,
    /// A table's row: named by its text on screen, as a control.
    Row,
}

/// An element's role: its kind and the word the outline shows (`button`, `tab`, `list`).
pub(crate) struct Role {
    pub kind: Kind,
    pub word: String,
}

/// The role the reading tools give `el`, from its tag and attributes alone (nothing of its
/// visibility or text); `None` for an element they give no ref.
pub(crate) fn role(el: &Element) -> Option<Role> {
    let is = |sel: &str| matches(el, sel) == Ok(true);
    let (kind, word) = if is(TABLES) {
        (Kind::Table, "table".to_owned())
    } else if is(CLICKABLE) {
        let word = if is("a[href],[role=link]") {
            "link".to_owned()
        } else {
            // One of CLICKABLE's roles (tab, menuitem…, switch, button), else a button.
            attr(el, "role").unwrap_or_else(|| "button".to_owned())
        };
        (Kind::Control, word)
    } else if is(FIELDS) {
        let word = match attr(el, "role") {
            // The field's own role when it gives one (`searchbox`, `combobox`…).
            Some(r) => r,
            None if is("select") => "combobox".to_owned(),
            None if is("input[type=checkbox]") => "checkbox".to_owned(),
            None if is("input[type=radio]") => "radio".to_owned(),
            None => "textbox".to_owned(),
        };
        (Kind::Field, word)
    } else if is(CONTAINERS) {
        let word = if is("[role=dialog],dialog") {
            "dialog".to_owned()
        } else {
            match lower(&string_prop(el, "tagName")).as_str() {
                "ul" | "ol" => "list".to_owned(),
                "nav" => "navigation".to_owned(),
                "section" => "region".to_owned(),
                // form, main
                tag => tag.to_owned(),
            }
        };
        (Kind::Container, word)
    } else if is(ROWS) {
        (Kind::Row, "row".to_owned())
    } else {
        return None;
    };
    Some(Role { kind, word })
}

/// A table's caption as it shows on screen (its first HTML `<caption>`); empty when it has none.
pub(crate) fn caption(table: &Element) -> String {
    query_all(table, "caption")
        .ok()
        .and_then(|c| c.into_iter().next())
        .map(|c| visible_text(&c))
        .unwrap_or_default()
}

/// What names a control (or a row), and whether a person reads it on screen: its text on
/// screen (an input button's value), else its accessible name, which is not on screen when it
/// comes from `aria-label` (the model is told so: such text may say anything).
fn control_name(el: &Element, root: &Element) -> (String, bool) {
    let mut text = visible_text(el);
    if text.is_empty() && matches(el, "input") == Ok(true) {
        text = clean_text(&string_prop(el, "value"));
    }
    if !text.is_empty() {
        return (text, true);
    }
    let label = label_of(el, root);
    let unseen = attr(el, "aria-label").is_some_and(|a| clean_text(&a) == label);
    (label.clone(), label.is_empty() || !unseen)
}

/// The name of `el` (of role `role`, inside `root`, whose labelling elements alone count), and
/// whether a person reads it on screen. Text is only what the visibility rule lets count, so
/// the name of an element no one sees now is not the name it had when it was seen.
pub(crate) fn name(el: &Element, root: &Element, role: &Role) -> (String, bool) {
    match role.kind {
        Kind::Table => (caption(el), true),
        Kind::Control | Kind::Row => control_name(el, root),
        Kind::Field | Kind::Container => (label_of(el, root), true),
    }
}
