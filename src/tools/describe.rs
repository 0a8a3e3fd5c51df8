//! The describe-form tool: what a model needs to fill a form, with the page's secrets redacted.

use serde_json::{json, Map, Value};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, HtmlButtonElement, HtmlFormElement, HtmlInputElement, HtmlSelectElement};

use super::fields::{fields, Control, Field};
use super::js::proto_get;
use super::labels::{clean_text, label_of, option_label};
use super::options::Config;
use super::scope::{attr, container, contains, form_ref, forms_in, root, Container};
use super::url::without_query;

/// Longest current value shown; a longer one is cut (the model sees `valueTruncated`).
const VALUE_MAX: usize = 500;
/// Most options listed for one select.
const OPTIONS_MAX: usize = 100;
/// Longest answer, kept under the protocol's 65,536-character result limit.
const TEXT_MAX: usize = 60_000;
/// Most forms described in one answer.
const FORMS_MAX: usize = 10;

fn cut(value: String, out: &mut Map<String, Value>) -> Value {
    if value.chars().count() > VALUE_MAX {
        out.insert("valueTruncated".into(), Value::Bool(true));
        Value::String(value.chars().take(VALUE_MAX).collect())
    } else {
        Value::String(value)
    }
}

/// The constraints a field's own attributes set.
fn constraints(el: &Element, out: &mut Map<String, Value>) {
    if el.has_attribute("required") {
        out.insert("required".into(), Value::Bool(true));
    }
    for a in [
        "minlength",
        "maxlength",
        "min",
        "max",
        "step",
        "pattern",
        "accept",
        "inputmode",
    ] {
        if let Some(v) = attr(el, a) {
            out.insert(a.into(), Value::String(v));
        }
    }
    if el.has_attribute("multiple") {
        out.insert("multiple".into(), Value::Bool(true));
    }
}

/// Validity as the browser sees it now; a redacted field's as a fixed phrase.
fn validity(f: &Field, redacted: bool, out: &mut Map<String, Value>) {
    if !f.validated() {
        return;
    }
    let reason = f.invalid_reason(redacted);
    out.insert("valid".into(), Value::Bool(reason.is_none()));
    if let Some(msg) = reason {
        out.insert("validationMessage".into(), Value::String(msg));
    }
}

fn choices(inputs: &[HtmlInputElement], root: &Element) -> Value {
    inputs
        .iter()
        .map(|i| {
            let mut o = Map::new();
            o.insert("value".into(), i.value().into());
            o.insert("label".into(), option_label(i, root).into());
            o.insert("checked".into(), i.checked().into());
            if i.disabled() {
                o.insert("disabled".into(), true.into());
            }
            Value::Object(o)
        })
        .collect()
}

fn select_options(s: &HtmlSelectElement, out: &mut Map<String, Value>) {
    let opts = s.options();
    let n = opts.length();
    let mut list = Vec::new();
    for i in 0..n.min(OPTIONS_MAX as u32) {
        let Some(o) = opts
            .get_with_index(i)
            .and_then(|o| o.dyn_into::<web_sys::HtmlOptionElement>().ok())
        else {
            continue;
        };
        let mut m = Map::new();
        m.insert("value".into(), o.value().into());
        m.insert("label".into(), clean_text(&o.label()).into());
        if o.selected() {
            m.insert("selected".into(), true.into());
        }
        if o.disabled() {
            m.insert("disabled".into(), true.into());
        }
        list.push(Value::Object(m));
    }
    out.insert("options".into(), Value::Array(list));
    if n as usize > OPTIONS_MAX {
        out.insert("optionsTruncated".into(), json!(n));
    }
}

/// One field, as the model reads it.
pub(crate) fn describe_field(f: &Field, sensitive: &[String]) -> Value {
    let mut o = Map::new();
    let kind = f.kind();
    o.insert("ref".into(), f.reference().into());
    o.insert("label".into(), f.label.clone().into());
    o.insert("type".into(), kind.clone().into());
    if !f.name.is_empty() {
        o.insert("name".into(), f.name.clone().into());
    }
    if !f.id.is_empty() {
        o.insert("id".into(), f.id.clone().into());
    }
    let el = f.element();
    constraints(&el, &mut o);
    let secret = f.secret(sensitive);
    let hidden = kind == "hidden";
    match &f.control {
        _ if secret.is_some() || hidden => {
            let filled = match &f.control {
                Control::Input(i) => !i.value().is_empty(),
                Control::TextArea(t) => !t.value().is_empty(),
                Control::Select(s) => !s.value().is_empty(),
                Control::Editable(e) => !e.inner_text().is_empty(),
                Control::Radios(v) | Control::Checkboxes(v) => v.iter().any(|i| i.checked()),
            };
            o.insert("value".into(), Value::Null);
            let why = secret.map(|s| s.describe()).unwrap_or("a hidden field");
            o.insert("redacted".into(), format!("{why}; filled: {filled}").into());
        }
        Control::Input(i) if kind == "checkbox" => {
            o.insert("checked".into(), i.checked().into());
        }
        Control::Input(i) if kind == "file" => {
            let names: Vec<Value> = i
                .files()
                .map(|fl| {
                    (0..fl.length())
                        .filter_map(|k| fl.item(k))
                        .map(|f| f.name().into())
                        .collect()
                })
                .unwrap_or_default();
            o.insert("files".into(), Value::Array(names));
        }
        Control::Input(i) => {
            let v = cut(i.value(), &mut o);
            o.insert("value".into(), v);
        }
        Control::TextArea(t) => {
            let v = cut(t.value(), &mut o);
            o.insert("value".into(), v);
        }
        Control::Select(s) => select_options(s, &mut o),
        Control::Editable(e) => {
            let v = cut(e.inner_text(), &mut o);
            o.insert("value".into(), v);
        }
        Control::Radios(v) | Control::Checkboxes(v) => {
            o.insert("options".into(), choices(v, &f.root));
        }
    }
    validity(f, secret.is_some() || hidden, &mut o);
    if f.disabled() {
        o.insert("disabled".into(), true.into());
    }
    if f.read_only() {
        o.insert("readOnly".into(), true.into());
    }
    if !hidden && !f.visible() {
        o.insert("visible".into(), false.into());
    }
    Value::Object(o)
}

/// The label of a button: its accessible name, else its text, value or alt.
pub(crate) fn button_label(b: &Element, root: &Element) -> String {
    let l = label_of(b, root);
    if !l.is_empty() {
        return l;
    }
    let text = clean_text(&b.text_content().unwrap_or_default());
    if !text.is_empty() {
        return text;
    }
    for a in ["value", "alt"] {
        if let Some(v) = attr(b, a).map(|v| clean_text(&v)).filter(|v| !v.is_empty()) {
            return v;
        }
    }
    "Submit".into()
}

/// The submit buttons of a form: `<button>` of type submit and `<input type=submit|image>`.
pub(crate) fn submit_buttons(form: &HtmlFormElement, root: &Element) -> Vec<Element> {
    let elements = proto_get("HTMLFormElement", "elements", form);
    js_sys::Array::from(&elements)
        .iter()
        .filter_map(|e| e.dyn_into::<Element>().ok())
        .filter(|e| contains(root, e))
        .filter(|e| {
            if let Some(b) = e.dyn_ref::<HtmlButtonElement>() {
                b.type_() == "submit"
            } else if let Some(i) = e.dyn_ref::<HtmlInputElement>() {
                let t = i.type_();
                t == "submit" || t == "image"
            } else {
                false
            }
        })
        .collect()
}

/// How the model names a button: its id, else its name, else its label.
pub(crate) fn button_ref(b: &Element, root: &Element) -> String {
    for a in ["id", "name"] {
        if let Some(v) = attr(b, a).filter(|v| !v.is_empty()) {
            return v;
        }
    }
    button_label(b, root)
}

fn describe_container(
    config: &Config,
    c: &Container,
    root: &Element,
    index: usize,
) -> Result<Value, String> {
    let mut o = Map::new();
    if let Container::Form(form) = c {
        o.insert("ref".into(), form_ref(form, index).into());
        let method = proto_get("HTMLFormElement", "method", form)
            .as_string()
            .unwrap_or_default();
        o.insert("method".into(), method.into());
        let action = proto_get("HTMLFormElement", "action", form)
            .as_string()
            .unwrap_or_default();
        o.insert(
            "action".into(),
            without_query(&action).unwrap_or_default().into(),
        );
    }
    let list: Vec<Value> = fields(c, root)?
        .iter()
        .map(|f| describe_field(f, &config.sensitive))
        .collect();
    o.insert("fields".into(), Value::Array(list));
    if let Container::Form(form) = c {
        let buttons: Vec<Value> = submit_buttons(form, root)
            .iter()
            .map(|b| {
                let mut m = Map::new();
                m.insert("ref".into(), button_ref(b, root).into());
                m.insert("label".into(), button_label(b, root).into());
                if b.matches(":disabled").unwrap_or(false) {
                    m.insert("disabled".into(), true.into());
                }
                Value::Object(m)
            })
            .collect();
        o.insert("submitButtons".into(), Value::Array(buttons));
    }
    Ok(Value::Object(o))
}

/// Runs describe: `asked` (`args.form`) picks one form; without it, every form in scope is described (or
/// the root's loose fields when it holds no form).
pub(crate) fn run(config: &Config, asked: Option<&str>) -> Result<JsValue, String> {
    let forms = if asked.is_some() || config.form.is_some() {
        vec![container(config, asked, false)?]
    } else {
        let found = forms_in(&root(config)?)?;
        if found.is_empty() {
            vec![container(config, None, false)?]
        } else {
            found
                .into_iter()
                .take(FORMS_MAX)
                .map(Container::Form)
                .collect()
        }
    };
    let root = root(config)?;
    let all_forms = forms_in(&root)?;
    let mut list = Vec::new();
    for c in &forms {
        // The same "form N" the agent can pass back, counted among all forms in scope.
        let index = match c {
            Container::Form(f) => all_forms.iter().position(|x| x == f).unwrap_or(0),
            Container::Area(_) => 0,
        };
        list.push(describe_container(config, c, &root, index)?);
    }
    let mut answer = json!({ "forms": list });
    // A result holds at most 65,536 characters: leave out trailing fields until it fits.
    let mut size = answer.to_string().chars().count();
    let mut left_out = 0;
    while size > TEXT_MAX {
        let dropped = answer["forms"].as_array_mut().and_then(|forms| {
            forms
                .iter_mut()
                .rev()
                .find_map(|f| f["fields"].as_array_mut().filter(|a| !a.is_empty()))
                .and_then(Vec::pop)
        });
        let Some(dropped) = dropped else {
            return Err("the form is too large to describe".into());
        };
        size -= dropped.to_string().chars().count() + 1;
        left_out += 1;
    }
    if left_out > 0 {
        answer["fieldsLeftOut"] = json!(left_out);
    }
    Ok(super::js::ok_result(&answer))
}
