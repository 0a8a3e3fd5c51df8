//! The fields of a form as a person sees them: each control with its accessible label, radio
//! buttons and same-named checkboxes grouped, and what makes a field off-limits (disabled,
//! read-only, invisible, hidden, a file, or a secret).

use super::js::{bool_prop, get, lower, proto_call, proto_get, string_prop};
use client_tools_core::quote::Quoted;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, HtmlElement, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

use super::dom::{cast, disabled, is_a, node_get};

use super::labels::{clean_text, group_label, label_of};
use super::scope::{attr, contains, query_all, Container};
use super::visible::{choice, Unseen};

/// One field as the agent addresses it.
pub(crate) enum Control {
    Input(HtmlInputElement),
    TextArea(HtmlTextAreaElement),
    Select(HtmlSelectElement),
    /// A `contenteditable` element (rich-text boxes).
    Editable(HtmlElement),
    /// Radio buttons sharing a name: one field whose value picks one of them.
    Radios(Vec<HtmlInputElement>),
    /// Checkboxes sharing a name: one field whose value lists those to check.
    Checkboxes(Vec<HtmlInputElement>),
}

/// A field: its control and how the agent can name it.
pub(crate) struct Field {
    pub control: Control,
    pub label: String,
    pub name: String,
    pub id: String,
    /// The tool's root: labels come only from inside it.
    pub root: Element,
    /// Its place among the container's fields, for the `field N` ref.
    pub index: usize,
}

/// Why the page's secrets stay out of the model's view and hands.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Secret {
    Password,
    PaymentCard,
    OneTimeCode,
    /// A field the app's `sensitive` option names.
    Marked,
}

impl Secret {
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Secret::Password => "a password",
            Secret::PaymentCard => "payment card data",
            Secret::OneTimeCode => "a one-time code",
            Secret::Marked => "data the app marked sensitive",
        }
    }
}

impl Field {
    /// The elements behind the field (several for a group).
    pub(crate) fn elements(&self) -> Vec<Element> {
        match &self.control {
            Control::Input(e) => vec![e.clone().into()],
            Control::TextArea(e) => vec![e.clone().into()],
            Control::Select(e) => vec![e.clone().into()],
            Control::Editable(e) => vec![e.clone().into()],
            Control::Radios(v) | Control::Checkboxes(v) => {
                let mut out = Vec::with_capacity(v.len());
                for e in v {
                    out.push(e.clone().into());
                }
                out
            }
        }
    }

    /// The element that stands for the field (the first of a group).
    pub(crate) fn element(&self) -> Element {
        self.elements().swap_remove(0)
    }

    /// What the model types to address the field: its id, else its name, else its label, else
    /// its place (`field N`).
    pub(crate) fn reference(&self) -> String {
        let is_group = matches!(self.control, Control::Radios(_) | Control::Checkboxes(_));
        if !self.id.is_empty() && !is_group {
            self.id.clone()
        } else if !self.name.is_empty() {
            self.name.clone()
        } else if !self.label.is_empty() {
            self.label.clone()
        } else {
            self.place()
        }
    }

    /// `field N`: the field's place among its container's fields, counted from 1.
    fn place(&self) -> String {
        format!("field {}", self.index + 1)
    }

    /// The field's type as the model reads it: the input type, `textarea`, `select`,
    /// `select-multiple`, `contenteditable`, `radio` or `checkbox-group`.
    pub(crate) fn kind(&self) -> String {
        match &self.control {
            Control::Input(e) => string_prop(e, "type"),
            Control::TextArea(_) => "textarea".into(),
            Control::Select(s) if bool_prop(s, "multiple") => "select-multiple".into(),
            Control::Select(_) => "select".into(),
            Control::Editable(_) => "contenteditable".into(),
            Control::Radios(_) => "radio".into(),
            Control::Checkboxes(_) => "checkbox-group".into(),
        }
    }

    /// Which secret the field holds, if any: `type=password`, an `autocomplete` token of a
    /// card (`cc-*`), a password or a one-time code, or a match of the app's `sensitive`
    /// selectors (the app's, so trusted to run as CSS).
    pub(crate) fn secret(&self, sensitive: &[String]) -> Option<Secret> {
        let marked = |e: &Element| {
            sensitive.iter().any(|sel| {
                proto_call("Element", "matches", e, &[&JsValue::from_str(sel)])
                    .is_ok_and(|v| v.is_truthy())
            })
        };
        if self.elements().iter().any(marked) {
            return Some(Secret::Marked);
        }
        let el = self.element();
        if is_a(&el, "HTMLInputElement") && string_prop(&el, "type") == "password" {
            return Some(Secret::Password);
        }
        let ac = attr(&el, "autocomplete")
            .unwrap_or_default()
            .to_ascii_lowercase();
        for token in ac.split_whitespace() {
            if token.starts_with("cc-") {
                return Some(Secret::PaymentCard);
            }
            if token == "one-time-code" {
                return Some(Secret::OneTimeCode);
            }
            if token == "current-password" || token == "new-password" {
                return Some(Secret::Password);
            }
        }
        None
    }

    /// Whether the model may not read the field's value: a secret or a hidden input.
    pub(crate) fn redacted(&self, sensitive: &[String]) -> bool {
        self.kind() == "hidden" || self.secret(sensitive).is_some()
    }

    /// Why the browser finds the field invalid now; `None` when it is valid or not validated.
    /// A redacted field gets a fixed phrase: the browser's message would tell the value's
    /// length ("you are currently using 6 characters") or shape.
    pub(crate) fn invalid_reason(&self, redacted: bool) -> Option<String> {
        for el in self.elements() {
            if !get(&el, "willValidate").is_truthy() {
                continue;
            }
            let validity = get(&el, "validity");
            if get(&validity, "valid").is_truthy() {
                continue;
            }
            return Some(if !redacted {
                get(&el, "validationMessage")
                    .as_string()
                    .unwrap_or_default()
            } else if get(&validity, "valueMissing").is_truthy() {
                "required and empty".into()
            } else {
                "invalid".into()
            });
        }
        None
    }

    /// Whether the browser checks the field's validity at all (not disabled, hidden, …).
    pub(crate) fn validated(&self) -> bool {
        self.elements()
            .iter()
            .any(|el| get(el, "willValidate").is_truthy())
    }

    /// Whether every element of the field is disabled (itself, or by a disabled fieldset).
    pub(crate) fn disabled(&self) -> bool {
        self.elements()
            .iter()
            .all(|e| disabled(e) || attr(e, "aria-disabled").as_deref() == Some("true"))
    }

    /// Whether the page marks the field read-only.
    pub(crate) fn read_only(&self) -> bool {
        let el = self.element();
        let own = matches!(self.control, Control::Input(_) | Control::TextArea(_))
            && bool_prop(&el, "readOnly");
        own || attr(&el, "aria-readonly").as_deref() == Some("true")
    }

    /// Whether a person could see the field, by the page tools' one rule
    /// ([`super::visible::control`]), else why not (that of its first element). A checkbox or
    /// radio drawn by a visible label instead of itself counts as visible, as it does on screen.
    pub(crate) fn visible(&self) -> Result<(), Unseen> {
        if matches!(self.control, Control::Input(ref i) if string_prop(i, "type") == "hidden") {
            return Err(Unseen::Hidden);
        }
        let mut why = None;
        for el in self.elements() {
            match choice(&el) {
                Ok(()) => return Ok(()),
                Err(w) => {
                    why.get_or_insert(w);
                }
            }
        }
        Err(why.unwrap_or(Unseen::Hidden))
    }
}

/// The controls of a container inside `root`, grouped into fields, in document order. (A
/// form's `elements` include controls tied to it by `form=` from anywhere in the page.)
pub(crate) fn fields(container: &Container, root: &Element) -> Result<Vec<Field>, String> {
    let controls: Vec<Element> = match container {
        Container::Form(f) => super::js::elements(&proto_get("HTMLFormElement", "elements", f)),
        Container::Area(root) => query_all(root, "input,select,textarea")?,
    };
    let mut out: Vec<Field> = Vec::new();
    for el in controls {
        if !contains(root, &el) {
            continue;
        }
        let name = attr(&el, "name").unwrap_or_default();
        let id = attr(&el, "id").unwrap_or_default();
        let control = if is_a(&el, "HTMLInputElement") {
            let i: &HtmlInputElement = el.unchecked_ref();
            let t = string_prop(i, "type");
            if matches!(t.as_str(), "submit" | "reset" | "button" | "image") {
                continue;
            }
            if (t == "radio" || t == "checkbox") && !name.is_empty() {
                let radio = t == "radio";
                let group = out.iter_mut().find(|f| {
                    f.name == name
                        && match &f.control {
                            Control::Radios(_) => radio,
                            Control::Checkboxes(_) => !radio,
                            Control::Input(first) => {
                                !radio && string_prop(first, "type") == "checkbox"
                            }
                            _ => false,
                        }
                });
                if let Some(group) = group {
                    match &mut group.control {
                        Control::Radios(v) | Control::Checkboxes(v) => v.push(i.clone()),
                        Control::Input(first) => {
                            group.label = group_label(first, &group.name, root);
                            group.control = Control::Checkboxes(vec![first.clone(), i.clone()]);
                        }
                        _ => {}
                    }
                    continue;
                }
                if radio {
                    let label = group_label(i, &name, root);
                    let c = Control::Radios(vec![i.clone()]);
                    out.push(Field {
                        control: c,
                        label,
                        name,
                        id,
                        root: root.clone(),
                        index: 0,
                    });
                    continue;
                }
            }
            Control::Input(i.clone())
        } else if is_a(&el, "HTMLTextAreaElement") {
            Control::TextArea(el.clone().unchecked_into())
        } else if is_a(&el, "HTMLSelectElement") {
            Control::Select(el.clone().unchecked_into())
        } else {
            continue;
        };
        let label = label_of(&el, root);
        out.push(Field {
            control,
            label,
            name,
            id,
            root: root.clone(),
            index: 0,
        });
    }
    for el in query_all(container.element(), "[contenteditable]")? {
        let Some(h) = cast::<HtmlElement>(el.into(), "HTMLElement") else {
            continue;
        };
        let nested = node_get("Node", "parentElement", &h)
            .is_some_and(|p| is_a(&p, "HTMLElement") && bool_prop(&p, "isContentEditable"));
        if !bool_prop(&h, "isContentEditable") || nested {
            continue;
        }
        let name = attr(&h, "name").unwrap_or_default();
        let id = string_prop(&h, "id");
        let label = label_of(&h, root);
        out.push(Field {
            control: Control::Editable(h),
            label,
            name,
            id,
            root: root.clone(),
            index: 0,
        });
    }
    for (i, f) in out.iter_mut().enumerate() {
        f.index = i;
    }
    Ok(out)
}

/// Whether the locator `loc` is a ref (`read_page`'s, `read_table`'s) that names `el` inside
/// `root` now: how the form tools take refs beside ids, names and labels. Without the
/// page-reading tools no ref is ever issued, so none names anything.
#[cfg(feature = "page-reading")]
pub(crate) fn is_ref_of(loc: &str, el: &Element, root: &Element) -> bool {
    super::refs::resolve(loc, std::slice::from_ref(root))
        .is_ok_and(|(found, _)| js_sys::Object::is(&found, el))
}

#[cfg(not(feature = "page-reading"))]
pub(crate) fn is_ref_of(_loc: &str, _el: &Element, _root: &Element) -> bool {
    false
}

/// The field one of whose elements the ref `loc` names inside the tool's root (a ref names one
/// element, so at most one field).
#[cfg(feature = "page-reading")]
fn by_ref<'a>(fields: &'a [Field], loc: &str) -> Option<&'a Field> {
    // The ref is checked once (its element, role and name), not once per element.
    let root = &fields.first()?.root;
    let (el, _) = super::refs::resolve(loc, std::slice::from_ref(root)).ok()?;
    (fields.iter()).find(|f| f.elements().iter().any(|e| js_sys::Object::is(e, &el)))
}

#[cfg(not(feature = "page-reading"))]
fn by_ref<'a>(_fields: &'a [Field], _loc: &str) -> Option<&'a Field> {
    None
}

/// Finds the field the agent named among the in-scope `fields`: a ref `read_page` gave for one
/// of its elements, else an exact id, else an exact name, else a label equal to it ignoring
/// case and spacing, else its `field N` place. Compared as text, never run as a selector. Two
/// fields with the same label make the name ambiguous.
pub(crate) fn find<'a>(fields: &'a [Field], loc: &str) -> Result<&'a Field, String> {
    super::scope::check_locator("field", loc)?;
    let by = |pick: &dyn Fn(&Field) -> bool| -> Vec<&'a Field> {
        let mut hits = Vec::new();
        for f in fields {
            if pick(f) {
                hits.push(f);
            }
        }
        hits
    };
    let wanted = lower(&clean_text(loc));
    if let Some(f) = by_ref(fields, loc) {
        return Ok(f);
    }
    let tiers: [Vec<&Field>; 4] = [
        by(&|f| f.id == loc || f.elements().iter().any(|e| string_prop(e, "id") == loc)),
        by(&|f| f.name == loc),
        by(&|f| !f.label.is_empty() && lower(&f.label) == wanted),
        by(&|f| f.place() == loc),
    ];
    for tier in tiers {
        match tier.as_slice() {
            [] => continue,
            [one] => return Ok(one),
            many => {
                let mut refs = Vec::new();
                for f in many {
                    refs.push(f.reference());
                }
                return Err(format!(
                    "{} names {} fields; use one of their ids or names: {}",
                    Quoted(loc),
                    many.len(),
                    client_tools_core::text::join(&refs, ", ")
                ));
            }
        }
    }
    Err(format!(
        "no field in this form is labelled, named or identified {}",
        Quoted(loc)
    ))
}
