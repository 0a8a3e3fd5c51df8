//! The fill-form tool: puts values into fields the way a person would, so the app's own state
//! (React, Vue, Angular) follows, and says per field what happened.

use client_tools_core::quote::Quoted;
use serde_json::{Map, Value};
use wasm_bindgen::JsValue;

use super::controls::{
    checkbox, checkboxes, click, editable, files, focus, radios, refuse, select, type_checked,
    type_text, Changed, Outcome, Set,
};
use super::fields::{fields, find, Control, Field};
use super::js::json::{entries, read_json, string_arg};
use super::js::{document, error_result, get, ok_result, CallContext};
use super::options::Config;
use super::scope::{connected, container, root};
use super::text::{format_hint, single_line};
use super::{json_object, put};

/// Why the fields after a cancellation were left alone.
const CANCELLED: &str = "the call was cancelled or timed out before this field";

/// Most fields one call may fill.
const FIELDS_MAX: usize = 100;

/// Lets the app react before the value is read back: React flushes during the event, Vue on
/// its next tick, others in a later task; waiting for the next task covers all of them.
async fn settle() {
    super::js::promise::next_task().await;
}

/// Why a value for a URL field is refused: a scheme that runs code when the app links to it.
fn url_scheme_refused(value: &Value) -> Option<String> {
    let scheme = super::url::script_scheme(value.as_str()?)?;
    Some(format!(
        "the value is a {scheme} URL, which is not put into URL fields"
    ))
}

/// Why a field is off-limits, if it is.
fn gate(config: &Config, f: &Field) -> Result<(), Outcome> {
    let kind = f.kind();
    if f.disabled() {
        return refuse("the field is disabled");
    }
    if f.read_only() {
        return refuse("the field is read-only");
    }
    if kind == "hidden" {
        return if config.allow_hidden {
            Ok(())
        } else {
            refuse("hidden fields are not filled (the app did not allow it)")
        };
    }
    if kind == "file" && !config.allow_files {
        return refuse("file fields are not filled (the app did not allow it)");
    }
    if let Some(s) = f.secret(&config.sensitive) {
        if !config.allow_sensitive {
            return refuse(format!(
                "the field holds {}; the app did not allow filling it",
                s.describe()
            ));
        }
    }
    super::visible::reveal(&f.element());
    if let Err(why) = f.visible() {
        return refuse(format!(
            "the field is not visible on the page: {}",
            why.describe()
        ));
    }
    Ok(())
}

async fn apply(config: &Config, f: &Field, value: &Value) -> Outcome {
    if let Err(o) = gate(config, f) {
        return o;
    }
    let kind = f.kind();
    if kind == "url" {
        if let Some(why) = url_scheme_refused(value) {
            return Outcome::Refused(why);
        }
    }
    let started = match &f.control {
        Control::Input(i) if kind == "checkbox" => checkbox(i, value),
        Control::Input(i) if kind == "file" => files(i, value),
        Control::Input(i) if format_hint(&kind).is_some() => type_checked(i, &kind, value),
        Control::Input(i) if single_line(&kind) || kind == "hidden" => {
            type_text("HTMLInputElement", i, value, false)
        }
        Control::Input(_) => refuse(format!("fields of type {kind} are not filled")),
        Control::TextArea(t) => type_text("HTMLTextAreaElement", t, value, true),
        Control::Select(s) => select(s, value),
        Control::Editable(e) => editable(e, value),
        Control::Radios(g) => radios(g, &f.root, value),
        Control::Checkboxes(g) => checkboxes(g, &f.root, value),
    };
    let step = match started {
        Ok(step) => step,
        Err(refused) => return refused,
    };
    for el in &step.clicks {
        click(el);
        settle().await;
    }
    if step.clicks.is_empty() {
        settle().await;
    }
    (step.read)()
}

/// One line of the report; a redacted field's value and validation message never go back to
/// the model.
fn report(config: &Config, loc: &str, f: Option<&Field>, outcome: Outcome) -> (Value, bool) {
    let mut o = Map::new();
    put(&mut o, "field", loc.into());
    let redact = f.is_some_and(|f| f.redacted(&config.sensitive));
    let shown = |v: Value| {
        if redact {
            Value::String("[redacted]".into())
        } else {
            v
        }
    };
    let refused = matches!(outcome, Outcome::Refused(_));
    match outcome {
        Set(v) => {
            put(&mut o, "status", "set".into());
            put(&mut o, "value", shown(v));
        }
        Changed(v, note) => {
            put(&mut o, "status", "changed".into());
            put(&mut o, "value", shown(v));
            put(&mut o, "note", note.into());
        }
        Outcome::Refused(why) => {
            put(&mut o, "status", "refused".into());
            put(&mut o, "reason", why.into());
        }
    }
    if let Some(msg) = f
        .filter(|_| !refused)
        .and_then(|f| f.invalid_reason(redact))
    {
        put(&mut o, "valid", false.into());
        put(&mut o, "validationMessage", msg.into());
    }
    (Value::Object(o), refused)
}

/// Runs fill: `args.fields` maps a field's label, name or id to its value, filled in order.
/// Any refused field makes the result an error that still lists what was set.
pub(crate) async fn run(
    config: &Config,
    args: &JsValue,
    ctx: &CallContext,
) -> Result<JsValue, String> {
    let asked = string_arg(args, "form")?;
    let wanted = get(args, "fields");
    if !wanted.is_object() || crate::js::is_array(&wanted) {
        return Err(
            "fields must be an object mapping a field's label, name or id to its value".into(),
        );
    }
    let wanted = entries(&wanted);
    if wanted.is_empty() {
        return Err("fields is empty: name at least one field".into());
    }
    if wanted.len() > FIELDS_MAX {
        return Err(format!(
            "fields names {} fields; at most {FIELDS_MAX} per call",
            wanted.len()
        ));
    }
    let c = container(config, asked.as_deref(), false)?;
    let all = fields(&c, &root(config)?)?;
    // Filling moves focus from field to field; the user's own focus (say, a chat box) returns after.
    let had_focus = super::dom::node_get("Document", "activeElement", document()?.as_ref())
        .map(wasm_bindgen::JsCast::unchecked_into::<web_sys::Element>);
    let mut lines = Vec::new();
    let (mut set_count, mut refused_count) = (0u32, 0u32);
    for (loc, value) in &wanted {
        let (line, refused) = match find(&all, loc) {
            // A cancelled or timed-out call stops changing the page.
            _ if ctx.aborted() => report(config, loc, None, Outcome::Refused(CANCELLED.into())),
            Ok(f) => match read_json(value, &format!("the value of {}", Quoted(loc))) {
                Ok(v) => report(config, loc, Some(f), apply(config, f, &v).await),
                Err(why) => report(config, loc, Some(f), Outcome::Refused(why)),
            },
            Err(why) => report(config, loc, None, Outcome::Refused(why)),
        };
        if refused {
            refused_count += 1;
        } else {
            set_count += 1;
        }
        lines.push(line);
    }
    if let Some(el) = had_focus.filter(connected) {
        focus(&el);
    }
    let body = json_object(&mut [
        ("filled", set_count.into()),
        ("refused", refused_count.into()),
        ("fields", Value::Array(lines)),
    ]);
    Ok(if refused_count > 0 {
        error_result(&client_tools_core::json::json_text(&body))
    } else {
        ok_result(&body)
    })
}
