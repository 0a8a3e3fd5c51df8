//! How a person operates each kind of control, done through the DOM: values through the
//! prototype setters, toggles by clicks, choices by value or label, then the events an app
//! listens for, then a read-back of what the page kept.

use super::dom::{cast, construct, disabled, fire, items};
use super::js::{bool_prop, get, lower, object, proto_call, proto_set, set, string_prop};
use client_tools_core::quote::Quoted;
use serde_json::Value;
use wasm_bindgen::JsValue;
use web_sys::{Element, HtmlInputElement, HtmlOptionElement, HtmlSelectElement};

use super::labels::{clean_text, option_label};
use super::text::{check_typed, cut_utf16, format_hint, is_hex_color};

/// Most choices named in a refusal.
const OPTIONS_NAMED: usize = 20;

/// What happened to one field.
pub(crate) enum Outcome {
    /// The field holds exactly what was asked.
    Set(Value),
    /// The field holds something else: cut to `maxlength`, clamped, or rewritten by the app.
    Changed(Value, String),
    Refused(String),
}

pub(crate) use Outcome::{Changed, Set};

/// A control after its first write: toggles still to click, one per tick (Vue's v-model reads
/// a checkbox array from the last render, so two clicks in one tick would lose the first),
/// then a read-back of what the page kept once it had a tick to react. Synchronous steps
/// with a boxed read-back keep the async part of fill (and the .wasm) small.
pub(crate) struct Step {
    pub clicks: Vec<Element>,
    pub read: Box<dyn FnOnce() -> Outcome>,
}

fn step(clicks: Vec<Element>, read: impl FnOnce() -> Outcome + 'static) -> Result<Step, Outcome> {
    Ok(Step {
        clicks,
        read: Box::new(read),
    })
}

pub(crate) fn refuse<T>(why: impl Into<String>) -> Result<T, Outcome> {
    Err(Outcome::Refused(why.into()))
}

/// Text from the agent's value: a string, or a number written as JSON writes it.
fn as_text(v: &Value) -> Result<String, Outcome> {
    match v {
        Value::String(s) => Ok(s.clone()),
        // Not `Number`'s `Display`, which would link serde_json's float formatter.
        Value::Number(_) => Ok(client_tools_core::json::json_text(v)),
        _ => refuse("this field takes text (a string)"),
    }
}

/// Fires `input` then `change`, bubbling and composed, as typing and leaving a field does.
fn fire_input_change(el: &Element) {
    for kind in ["input", "change"] {
        let init = super::js::json::parse_json(r#"{"bubbles":true,"composed":true}"#);
        let _ = fire(el, "Event", kind, &init);
    }
}

pub(crate) fn focus(el: &Element) {
    let opts = object();
    set(&opts, "preventScroll", &JsValue::TRUE);
    // Focus and blur let apps that validate "on blur" react as they do to a person.
    let _ = proto_call("HTMLElement", "focus", el, &[&opts]);
}

fn blur(el: &Element) {
    let _ = proto_call("HTMLElement", "blur", el, &[]);
}

fn value_of(el: &Element) -> String {
    get(el, "value").as_string().unwrap_or_default()
}

/// Sets `value` through the prototype's setter, then fires the events.
fn put_value(class: &str, el: &Element, text: &str) -> Result<(), Outcome> {
    focus(el);
    proto_set(class, "value", el, &JsValue::from_str(text)).map_err(Outcome::Refused)?;
    fire_input_change(el);
    blur(el);
    Ok(())
}

/// Free text in an `<input>` or `<textarea>`, cut to `maxlength` as typing would be.
pub(crate) fn type_text(
    class: &str,
    el: &Element,
    value: &Value,
    multi_line: bool,
) -> Result<Step, Outcome> {
    let mut text = as_text(value)?;
    check_typed(&text, multi_line).map_err(Outcome::Refused)?;
    let mut note = None;
    // maxLength is -1 when the attribute is absent; an integer otherwise.
    let max = get(el, "maxLength").as_f64().unwrap_or(-1.0);
    if max >= 0.0 {
        let max = max as u32;
        if let Some(short) = cut_utf16(&text, max as usize) {
            note = Some(format!("cut to the field's maxlength of {max}"));
            text = short;
        }
    }
    put_value(class, el, &text)?;
    let el = el.clone();
    step(Vec::new(), move || {
        let now = value_of(&el);
        match note {
            _ if now != text => Changed(now.into(), "the page changed the value".into()),
            Some(n) => Changed(now.into(), n),
            None => Set(now.into()),
        }
    })
}

/// Date, time, number, range and color inputs: the browser's own parser checks the value; a
/// value it rejects is put back and refused.
pub(crate) fn type_checked(
    el: &HtmlInputElement,
    kind: &str,
    value: &Value,
) -> Result<Step, Outcome> {
    let text = as_text(value)?;
    let hint = format_hint(kind).unwrap_or("a valid value");
    check_typed(&text, false).map_err(Outcome::Refused)?;
    if kind == "color" && !is_hex_color(&text) {
        return refuse(format!("{} is not a color; expected {hint}", Quoted(&text)));
    }
    let old = string_prop(el, "value");
    proto_set("HTMLInputElement", "value", el, &JsValue::from_str(&text))
        .map_err(Outcome::Refused)?;
    if string_prop(el, "value").is_empty() && !text.is_empty() {
        let _ = proto_set("HTMLInputElement", "value", el, &JsValue::from_str(&old));
        return refuse(format!(
            "{} is not a valid {kind} value; expected {hint}",
            Quoted(&text)
        ));
    }
    put_value("HTMLInputElement", el, &string_prop(el, "value"))?;
    let el = el.clone();
    step(Vec::new(), move || {
        let now = string_prop(&el, "value");
        if now.eq_ignore_ascii_case(&text) {
            Set(now.into())
        } else {
            Changed(
                now.into(),
                "the page changed the value (min, max or step)".into(),
            )
        }
    })
}

/// A choice named by its value, else its label (ignoring case and spacing).
fn choose<'a, T: AsRef<JsValue>>(
    items: &'a [T],
    wanted: &str,
    label: &dyn Fn(&T) -> String,
) -> Option<&'a T> {
    for i in items {
        if string_prop(i.as_ref(), "value") == wanted {
            return Some(i);
        }
    }
    let w = lower(&clean_text(wanted));
    items.iter().find(|i| lower(&label(i)) == w)
}

fn wanted_list(value: &Value) -> Result<Vec<String>, Outcome> {
    match value {
        Value::Array(items) => {
            let mut out = Vec::with_capacity(items.len());
            for i in items {
                out.push(as_text(i)?);
            }
            Ok(out)
        }
        other => Ok(vec![as_text(other)?]),
    }
}

/// Clicks as a person does (`HTMLElement.prototype.click`): the app sees click, input, change.
pub(crate) fn click(el: &Element) {
    let _ = proto_call("HTMLElement", "click", el, &[]);
}

pub(crate) fn checkbox(el: &HtmlInputElement, value: &Value) -> Result<Step, Outcome> {
    let want = match value {
        Value::Bool(b) => *b,
        Value::String(s) if s == "true" || s == "false" => s == "true",
        _ => return refuse("a checkbox takes true or false"),
    };
    let clicks = if bool_prop(el, "checked") != want {
        vec![el.clone().into()]
    } else {
        Vec::new()
    };
    let el = el.clone();
    step(clicks, move || {
        let now = bool_prop(&el, "checked");
        if now == want {
            Set(now.into())
        } else {
            Changed(now.into(), "the page did not let the box change".into())
        }
    })
}

fn options_list(items: &[HtmlInputElement], root: &Element) -> String {
    some_of(items.len(), &|i| option_label(&items[i], root))
}

/// The first few of a list of choices, for a refusal that says what the choices are.
fn some_of(count: usize, label: &dyn Fn(usize) -> String) -> String {
    let mut out: Vec<String> = Vec::new();
    for i in 0..count.min(OPTIONS_NAMED) {
        out.push(label(i));
    }
    if count > OPTIONS_NAMED {
        out.push("…".into());
    }
    client_tools_core::text::join(&out, ", ")
}

/// Refuses a radio button or checkbox of a group that a person could not click: disabled (by
/// itself or a disabled fieldset) or not visible (by the page tools' one rule).
fn choice_usable(i: &HtmlInputElement, shown: &str) -> Result<(), Outcome> {
    if disabled(i) {
        return refuse(format!("the choice {} is disabled", Quoted(shown)));
    }
    if let Err(why) = super::visible::choice(i) {
        return refuse(format!(
            "the choice {} is not visible on the page: {}",
            Quoted(shown),
            why.describe()
        ));
    }
    Ok(())
}

pub(crate) fn radios(
    group: &[HtmlInputElement],
    root: &Element,
    value: &Value,
) -> Result<Step, Outcome> {
    let text = as_text(value)?;
    let label = |i: &HtmlInputElement| option_label(i, root);
    let Some(pick) = choose(group, &text, &label) else {
        return refuse(format!(
            "{} is not one of: {}",
            Quoted(&text),
            options_list(group, root)
        ));
    };
    choice_usable(pick, &text)?;
    let clicks = if bool_prop(pick, "checked") {
        Vec::new()
    } else {
        vec![pick.clone().into()]
    };
    let (pick, root) = (pick.clone(), root.clone());
    step(clicks, move || {
        if bool_prop(&pick, "checked") {
            Set(option_label(&pick, &root).into())
        } else {
            Changed(Value::Null, "the page did not let the choice change".into())
        }
    })
}

pub(crate) fn checkboxes(
    group: &[HtmlInputElement],
    root: &Element,
    value: &Value,
) -> Result<Step, Outcome> {
    let mut want = Vec::new();
    let label = |i: &HtmlInputElement| option_label(i, root);
    for text in wanted_list(value)? {
        match choose(group, &text, &label) {
            Some(i) => want.push(i.clone()),
            None => {
                return refuse(format!(
                    "{} is not one of: {}",
                    Quoted(&text),
                    options_list(group, root)
                ))
            }
        }
    }
    let mut change: Vec<&HtmlInputElement> = Vec::new();
    for i in group {
        if want.contains(i) != bool_prop(i, "checked") {
            change.push(i);
        }
    }
    let mut clicks: Vec<Element> = Vec::new();
    for i in &change {
        choice_usable(i, &option_label(i, root))?;
        clicks.push((*i).clone().into());
    }
    let (group, root) = (group.to_vec(), root.clone());
    step(clicks, move || {
        let mut now: Vec<Value> = Vec::new();
        for i in &group {
            if bool_prop(i, "checked") {
                now.push(option_label(i, &root).into());
            }
        }
        if group
            .iter()
            .all(|i| want.contains(i) == bool_prop(i, "checked"))
        {
            Set(Value::Array(now))
        } else {
            Changed(
                Value::Array(now),
                "the page did not let every box change".into(),
            )
        }
    })
}

pub(crate) fn select(s: &HtmlSelectElement, value: &Value) -> Result<Step, Outcome> {
    let mut all: Vec<HtmlOptionElement> = Vec::new();
    for o in items(&get(s, "options")).iter() {
        if let Some(o) = cast(o, "HTMLOptionElement") {
            all.push(o);
        }
    }
    let list = || some_of(all.len(), &|i| clean_text(&string_prop(&all[i], "label")));
    let texts = wanted_list(value)?;
    if !bool_prop(s, "multiple") && texts.len() != 1 {
        return refuse("this select takes one choice");
    }
    let mut picks = Vec::new();
    for t in &texts {
        let Some(o) = choose(&all, t, &|o| clean_text(&string_prop(o, "label"))) else {
            return refuse(format!("{} is not one of: {}", Quoted(t), list()));
        };
        // `:disabled`: an option in a disabled `<optgroup>` is as disabled as one marked so.
        if disabled(o) {
            return refuse(format!("the option {} is disabled", Quoted(t)));
        }
        if !super::visible::option(o) {
            return refuse(format!("the option {} is hidden", Quoted(t)));
        }
        picks.push(o.clone());
    }
    focus(s);
    if bool_prop(s, "multiple") {
        for o in &all {
            let on = picks.contains(o);
            proto_set("HTMLOptionElement", "selected", o, &JsValue::from_bool(on))
                .map_err(Outcome::Refused)?;
        }
    } else {
        let index = get(&picks[0], "index");
        proto_set("HTMLSelectElement", "selectedIndex", s, &index).map_err(Outcome::Refused)?;
    }
    fire_input_change(s);
    blur(s);
    let multiple = bool_prop(s, "multiple");
    step(Vec::new(), move || {
        let mut now: Vec<Value> = Vec::new();
        for o in &all {
            if bool_prop(o, "selected") {
                now.push(string_prop(o, "value").into());
            }
        }
        let same = all
            .iter()
            .all(|o| picks.contains(o) == bool_prop(o, "selected"));
        let now = if multiple {
            Value::Array(now)
        } else {
            now.into_iter().next().unwrap_or(Value::Null)
        };
        if same {
            Set(now)
        } else {
            Changed(now, "the page changed the selection".into())
        }
    })
}

pub(crate) fn editable(el: &web_sys::HtmlElement, value: &Value) -> Result<Step, Outcome> {
    let text = as_text(value)?;
    check_typed(&text, true).map_err(Outcome::Refused)?;
    focus(el);
    // Plain text only: the agent's value never becomes markup.
    proto_set("Node", "textContent", el, &JsValue::from_str(&text)).map_err(Outcome::Refused)?;
    let init = super::js::json::parse_json(
        r#"{"bubbles":true,"composed":true,"inputType":"insertReplacementText"}"#,
    );
    set(&init, "data", &JsValue::from_str(&text));
    let _ = fire(el, "InputEvent", "input", &init);
    blur(el);
    let el = el.clone();
    step(Vec::new(), move || {
        let now = string_prop(&el, "textContent");
        if now == text {
            Set(now.into())
        } else {
            Changed(now.into(), "the page changed the text".into())
        }
    })
}

/// Files the agent writes itself: `{ name, text, type? }` (or several for `multiple`).
pub(crate) fn files(el: &HtmlInputElement, value: &Value) -> Result<Step, Outcome> {
    let specs = match value {
        Value::Array(v) => v.clone(),
        one => vec![one.clone()],
    };
    if specs.len() > 1 && !bool_prop(el, "multiple") {
        return refuse("this file field takes one file");
    }
    let dt = construct("DataTransfer", &[]).map_err(Outcome::Refused)?;
    let dt_items = get(&dt, "items");
    let mut names = Vec::new();
    for spec in &specs {
        let (Some(name), Some(text)) = (
            spec.get("name").and_then(Value::as_str),
            spec.get("text").and_then(Value::as_str),
        ) else {
            return refuse(
                "a file is { \"name\": \"notes.txt\", \"text\": \"…\", \"type\": \"text/plain\" }",
            );
        };
        if name.is_empty()
            || name.len() > 255
            || name.bytes().any(|b| b == b'/' || b == b'\\')
            || name.chars().any(char::is_control)
        {
            return refuse(format!("{} is not a plain file name", Quoted(name)));
        }
        check_typed(text, true).map_err(Outcome::Refused)?;
        let bag = object();
        let kind = (spec.get("type").and_then(Value::as_str)).unwrap_or("text/plain");
        set(&bag, "type", &JsValue::from_str(kind));
        let parts = super::js::array(&[&JsValue::from_str(text)]);
        let file = construct("File", &[&parts, &JsValue::from_str(name), &bag])
            .map_err(Outcome::Refused)?;
        super::js::call_method(&dt_items, "add", &[&file])
            .map_err(|e| Outcome::Refused(super::js::error_text(&e)))?;
        names.push(Value::String(name.into()));
    }
    proto_set("HTMLInputElement", "files", el, &get(&dt, "files")).map_err(Outcome::Refused)?;
    fire_input_change(el);
    step(Vec::new(), move || Set(Value::Array(names)))
}
