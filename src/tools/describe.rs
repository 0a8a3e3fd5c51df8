//! The describe-form tool: what a model needs to fill a form, with the page's secrets redacted.

use super::dom::is_a;
use super::js::{bool_prop, get, proto_get, string_prop};
use client_tools_core::json::json_text;
use serde_json::{Map, Value};
use wasm_bindgen::JsValue;
use web_sys::{Element, HtmlFormElement, HtmlInputElement, HtmlSelectElement};

use super::fields::{fields, Control, Field};
use super::labels::{clean_text, label_of, option_label};
use super::options::Config;
use super::scope::{attr, container, contains, form_ref, forms_in, root, Container};
use super::url::told;
use super::{json_object, put};

/// Longest current value shown; a longer one is cut (the model sees `valueTruncated`).
const VALUE_MAX: usize = 500;
/// Most options listed for one select.
const OPTIONS_MAX: usize = 100;
/// Longest answer, kept under the protocol's 65,536-character result limit.
const TEXT_MAX: usize = 60_000;
/// Most forms described in one answer.
const FORMS_MAX: usize = 10;

fn cut(mut value: String, out: &mut Map<String, Value>) -> Value {
    if super::text::cut_chars(&mut value, VALUE_MAX) {
        put(out, "valueTruncated", Value::Bool(true));
    }
    Value::String(value)
}

/// The constraints a field's own attributes set.
fn constraints(el: &Element, out: &mut Map<String, Value>) {
    if attr(el, "required").is_some() {
        put(out, "required", Value::Bool(true));
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
            put(out, a, Value::String(v));
        }
    }
    if attr(el, "multiple").is_some() {
        put(out, "multiple", Value::Bool(true));
    }
}

/// Validity as the browser sees it now; a redacted field's as a fixed phrase.
fn validity(f: &Field, redacted: bool, out: &mut Map<String, Value>) {
    if !f.validated() {
        return;
    }
    let reason = f.invalid_reason(redacted);
    put(out, "valid", Value::Bool(reason.is_none()));
    if let Some(msg) = reason {
        put(out, "validationMessage", Value::String(msg));
    }
}

fn choices(inputs: &[HtmlInputElement], root: &Element) -> Value {
    let mut list = Vec::with_capacity(inputs.len());
    for i in inputs {
        // A choice no one sees is not offered (its label may be text no one reads).
        if super::visible::choice(i).is_err() {
            continue;
        }
        let mut o = Map::new();
        put(&mut o, "value", string_prop(i, "value").into());
        put(&mut o, "label", option_label(i, root).into());
        put(&mut o, "checked", bool_prop(i, "checked").into());
        if super::dom::disabled(i) {
            put(&mut o, "disabled", true.into());
        }
        list.push(Value::Object(o));
    }
    Value::Array(list)
}

fn select_options(s: &HtmlSelectElement, out: &mut Map<String, Value>) {
    let opts = super::dom::items(&get(s, "options"));
    let n = opts.length();
    let mut list = Vec::new();
    for o in opts.iter().take(OPTIONS_MAX) {
        let Some(o) = super::dom::cast::<Element>(o, "HTMLOptionElement") else {
            continue;
        };
        // A hidden option is not offered (fill_form refuses it).
        if !super::visible::option(&o) {
            continue;
        }
        let mut m = Map::new();
        put(&mut m, "value", string_prop(&o, "value").into());
        put(
            &mut m,
            "label",
            clean_text(&string_prop(&o, "label")).into(),
        );
        if bool_prop(&o, "selected") {
            put(&mut m, "selected", true.into());
        }
        // `:disabled`: a disabled `<optgroup>` disables its options.
        if super::dom::disabled(&o) {
            put(&mut m, "disabled", true.into());
        }
        list.push(Value::Object(m));
    }
    put(out, "options", Value::Array(list));
    if n as usize > OPTIONS_MAX {
        put(out, "optionsTruncated", n.into());
    }
}

/// One field, as the model reads it.
pub(crate) fn describe_field(f: &Field, sensitive: &[String]) -> Value {
    let mut o = Map::new();
    let kind = f.kind();
    put(&mut o, "ref", f.reference().into());
    put(&mut o, "label", f.label.clone().into());
    put(&mut o, "type", kind.clone().into());
    if !f.name.is_empty() {
        put(&mut o, "name", f.name.clone().into());
    }
    if !f.id.is_empty() {
        put(&mut o, "id", f.id.clone().into());
    }
    let el = f.element();
    constraints(&el, &mut o);
    let secret = f.secret(sensitive);
    let hidden = kind == "hidden";
    // A field no one sees shows no value, options or validation message.
    let unseen = !hidden && f.visible().is_err();
    match &f.control {
        _ if unseen && secret.is_none() => {
            put(&mut o, "value", Value::Null);
            put(&mut o, "redacted", "not visible on the page".into());
        }
        _ if secret.is_some() || hidden => {
            let filled = match &f.control {
                Control::Radios(v) | Control::Checkboxes(v) => {
                    v.iter().any(|i| bool_prop(i, "checked"))
                }
                Control::Editable(e) => !string_prop(e, "innerText").is_empty(),
                _ => !string_prop(&el, "value").is_empty(),
            };
            put(&mut o, "value", Value::Null);
            let why = secret.map(|s| s.describe()).unwrap_or("a hidden field");
            put(
                &mut o,
                "redacted",
                format!("{why}; filled: {filled}").into(),
            );
        }
        Control::Input(i) if kind == "checkbox" => {
            put(&mut o, "checked", bool_prop(i, "checked").into());
        }
        Control::Input(i) if kind == "file" => {
            let mut names: Vec<Value> = Vec::new();
            for f in super::dom::items(&get(i, "files")).iter() {
                names.push(string_prop(&f, "name").into());
            }
            put(&mut o, "files", Value::Array(names));
        }
        Control::Input(i) => {
            let v = cut(string_prop(i, "value"), &mut o);
            put(&mut o, "value", v);
        }
        Control::TextArea(t) => {
            let v = cut(string_prop(t, "value"), &mut o);
            put(&mut o, "value", v);
        }
        Control::Select(s) => select_options(s, &mut o),
        Control::Editable(e) => {
            let v = cut(string_prop(e, "innerText"), &mut o);
            put(&mut o, "value", v);
        }
        Control::Radios(v) | Control::Checkboxes(v) => {
            put(&mut o, "options", choices(v, &f.root));
        }
    }
    validity(f, secret.is_some() || hidden || unseen, &mut o);
    if f.disabled() {
        put(&mut o, "disabled", true.into());
    }
    if f.read_only() {
        put(&mut o, "readOnly", true.into());
    }
    if unseen {
        put(&mut o, "visible", false.into());
    }
    Value::Object(o)
}

/// The label of a button: its accessible name, else its text, value or alt.
pub(crate) fn button_label(b: &Element, root: &Element) -> String {
    let l = label_of(b, root);
    if !l.is_empty() {
        return l;
    }
    let text = super::labels::visible_text(b);
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
    let mut out = Vec::new();
    for e in super::js::elements(&proto_get("HTMLFormElement", "elements", form)) {
        if !contains(root, &e) {
            continue;
        }
        let submits = if is_a(&e, "HTMLButtonElement") {
            string_prop(&e, "type") == "submit"
        } else if is_a(&e, "HTMLInputElement") {
            let t = string_prop(&e, "type");
            t == "submit" || t == "image"
        } else {
            false
        };
        if submits {
            out.push(e);
        }
    }
    out
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
        put(&mut o, "ref", form_ref(form, index).into());
        let method = proto_get("HTMLFormElement", "method", form)
            .as_string()
            .unwrap_or_default();
        put(&mut o, "method", method.into());
        let action = proto_get("HTMLFormElement", "action", form)
            .as_string()
            .unwrap_or_default();
        put(
            &mut o,
            "action",
            told(&action, config.show_action_path).into(),
        );
    }
    let mut list: Vec<Value> = Vec::new();
    for f in &fields(c, root)? {
        list.push(describe_field(f, &config.sensitive));
    }
    put(&mut o, "fields", Value::Array(list));
    if let Container::Form(form) = c {
        let mut buttons: Vec<Value> = Vec::new();
        for b in &submit_buttons(form, root) {
            let mut m = Map::new();
            put(&mut m, "ref", button_ref(b, root).into());
            put(&mut m, "label", button_label(b, root).into());
            if super::dom::disabled(b) {
                put(&mut m, "disabled", true.into());
            }
            buttons.push(Value::Object(m));
        }
        put(&mut o, "submitButtons", Value::Array(buttons));
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
            let mut forms = Vec::new();
            for f in found.into_iter().take(FORMS_MAX) {
                forms.push(Container::Form(f));
            }
            forms
        }
    };
    let root = root(config)?;
    let all_forms = forms_in(&root)?;
    let mut list = Vec::new();
    for c in &forms {
        // The same "form N" the agent can pass back, counted among all forms in scope.
        let index = match c {
            Container::Form(f) => all_forms
                .iter()
                .position(|x| js_sys::Object::is(x, f))
                .unwrap_or(0),
            Container::Area(_) => 0,
        };
        list.push(describe_container(config, c, &root, index)?);
    }
    let mut answer = json_object(&mut [("forms", Value::Array(list))]);
    // A result holds at most 65,536 characters: leave out trailing fields until it fits.
    let mut size = json_text(&answer).chars().count();
    let mut left_out = 0;
    while size > TEXT_MAX {
        let dropped = answer
            .get_mut("forms")
            .and_then(Value::as_array_mut)
            .and_then(|forms| {
                forms
                    .iter_mut()
                    .rev()
                    .find_map(|f| {
                        (f.get_mut("fields").and_then(Value::as_array_mut))
                            .filter(|a| !a.is_empty())
                    })
                    .and_then(Vec::pop)
            });
        let Some(dropped) = dropped else {
            return Err("the form is too large to describe".into());
        };
        size -= json_text(&dropped).chars().count() + 1;
        left_out += 1;
    }
    if let Some(o) = answer.as_object_mut().filter(|_| left_out > 0) {
        put(o, "fieldsLeftOut", Value::from(left_out));
    }
    Ok(super::js::ok_result(&answer))
}
