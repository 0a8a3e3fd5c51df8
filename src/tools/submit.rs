//! The submit-form tool: `requestSubmit(submitter)` taken from the prototype (or a press of the
//! button where the browser has none), after the form's
//! own validation passed and the human said yes; a page load waits until the result is posted.

use super::js::{
    bool_prop, error_result, get, lower, ok_result, proto_call, proto_get, CallContext,
};
use client_tools_core::quote::Quoted;
use std::cell::Cell;
use std::rc::Rc;

use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlFormElement};

use super::describe::{button_label, button_ref, submit_buttons};
use super::fields::{fields, is_ref_of, Field};
use super::json_object;
use super::labels::clean_text;
use super::options::Config;
use super::scope::{attr, check_locator, connected, container, root, Container};
use super::url::{check_target, without_query, Target};

/// The invalid fields of a form, each with the browser's message (a fixed phrase for a
/// redacted field).
fn invalid_fields(all: &[Field], sensitive: &[String]) -> Vec<Value> {
    let mut out = Vec::new();
    for f in all {
        if let Some(msg) = f.invalid_reason(f.redacted(sensitive)) {
            out.push(json_object(&mut [
                ("field", f.reference().into()),
                ("label", f.label.clone().into()),
                ("validationMessage", msg.into()),
            ]));
        }
    }
    out
}

/// The submitter the agent named, or the form's first enabled submit button.
fn pick_submitter(
    form: &HtmlFormElement,
    root: &Element,
    asked: Option<&str>,
) -> Result<Option<Element>, String> {
    let buttons = submit_buttons(form, root);
    let Some(loc) = asked else {
        return Ok(buttons.into_iter().find(|b| !super::dom::disabled(b)));
    };
    check_locator("button", loc)?;
    let wanted = lower(&clean_text(loc));
    let mut hits: Vec<&Element> = Vec::new();
    for b in &buttons {
        if is_ref_of(loc, b, root)
            || button_ref(b, root) == loc
            || lower(&button_label(b, root)) == wanted
        {
            hits.push(b);
        }
    }
    match hits.as_slice() {
        [] => {
            let mut labels = Vec::new();
            for b in &buttons {
                labels.push(button_label(b, root));
            }
            Err(format!(
                "no submit button of this form is called {}; its buttons: {}",
                Quoted(loc),
                client_tools_core::text::join(&labels, ", ")
            ))
        }
        [one] if super::dom::disabled(one) => {
            Err(format!("the button {} is disabled", Quoted(loc)))
        }
        [one] => Ok(Some((*one).clone())),
        many => Err(format!(
            "{} names {} buttons; use an id or name",
            Quoted(loc),
            many.len()
        )),
    }
}

/// Where and how the form would go: the submitter's `formaction`/`formmethod` win.
fn destination(form: &HtmlFormElement, submitter: Option<&Element>) -> (String, String) {
    let over = |a: &str| submitter.and_then(|s| attr(s, a)).is_some();
    let action = match submitter {
        Some(s) if over("formaction") => get(s, "formAction").as_string(),
        _ => proto_get("HTMLFormElement", "action", form).as_string(),
    };
    let method = match submitter {
        Some(s) if over("formmethod") => get(s, "formMethod").as_string(),
        _ => proto_get("HTMLFormElement", "method", form).as_string(),
    };
    (
        action.unwrap_or_default(),
        method.unwrap_or_else(|| "get".into()),
    )
}

/// Listens on the window while `requestSubmit` runs: the capture listener sees the submit
/// event first; the bubble listener, added last, runs after the app's and holds back a page
/// load the app did not take over, so it can start after the result is posted.
struct Watch {
    seen: Rc<Cell<bool>>,
    prevented_by_app: Rc<Cell<bool>>,
    held: Rc<Cell<bool>>,
    capture: JsValue,
    bubble: JsValue,
}

/// `window.addEventListener("submit", f, capture)` (`remove`: its removal).
fn listen(add: bool, f: &JsValue, capture: bool) -> Result<(), String> {
    listen_to(add, "submit", f, capture)
}

/// `window.addEventListener(kind, f, capture)` (`!add`: its removal).
pub(crate) fn listen_to(add: bool, kind: &str, f: &JsValue, capture: bool) -> Result<(), String> {
    let win = super::dom::window().ok_or("no window")?;
    let method = if add {
        "addEventListener"
    } else {
        "removeEventListener"
    };
    let args = [&JsValue::from_str(kind), f, &JsValue::from_bool(capture)];
    proto_call("EventTarget", method, &win, &args).map(|_| ())
}

/// A listener of the SDK's one closure shape; JS owns it and frees it once collected.
pub(crate) fn listener(f: impl Fn(&JsValue) + 'static) -> JsValue {
    Closure::<super::js::Callback>::new(move |e: JsValue, _: JsValue| {
        f(&e);
        JsValue::UNDEFINED
    })
    .into_js_value()
}

impl Watch {
    fn start(form: &HtmlFormElement, hold: bool) -> Result<Watch, String> {
        let seen = Rc::new(Cell::new(false));
        let prevented_by_app = Rc::new(Cell::new(false));
        let held = Rc::new(Cell::new(false));
        let (s, f) = (seen.clone(), form.clone());
        let capture = listener(move |e| {
            if is_form(e, &f) {
                s.set(true);
            }
        });
        let (p, h, f) = (prevented_by_app.clone(), held.clone(), form.clone());
        let bubble = listener(move |e| {
            if !is_form(e, &f) {
                return;
            }
            if bool_prop(e, "defaultPrevented") {
                p.set(true);
            } else if hold {
                let _ = proto_call("Event", "preventDefault", e, &[]);
                h.set(true);
            }
        });
        let watch = Watch {
            seen,
            prevented_by_app,
            held,
            capture,
            bubble,
        };
        listen(true, &watch.capture, true)?;
        listen(true, &watch.bubble, false)?;
        Ok(watch)
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = listen(false, &self.capture, true);
        let _ = listen(false, &self.bubble, false);
    }
}

/// Whether the event was fired at this form.
fn is_form(e: &JsValue, form: &HtmlFormElement) -> bool {
    js_sys::Object::is(&get(e, "target"), form)
}

/// `form.requestSubmit(submitter)`; where the browser has none (Safari before 16), what a
/// person does: clicks the submit button (the browser validates, fires the submit event and
/// sends the button's name and `formaction` as for a press), or with no button, the form's
/// validation (`reportValidity`, unless `novalidate`), a cancelable `submit` event and, when no
/// listener prevents it, `form.submit()`.
fn request_submit(form: &HtmlFormElement, submitter: Option<&Element>) -> Result<(), String> {
    let sub = submitter.map(JsValue::from).unwrap_or(JsValue::NULL);
    let proto = get(&get(&js_sys::global(), "HTMLFormElement"), "prototype");
    if get(&proto, "requestSubmit").is_function() {
        return proto_call("HTMLFormElement", "requestSubmit", form, &[&sub]).map(|_| ());
    }
    if let Some(button) = submitter {
        return proto_call("HTMLElement", "click", button, &[]).map(|_| ());
    }
    if !bool_prop(form, "noValidate")
        && !proto_call("HTMLFormElement", "reportValidity", form, &[])?.is_truthy()
    {
        return Ok(());
    }
    let init = super::js::object();
    super::js::set(&init, "bubbles", &JsValue::TRUE);
    super::js::set(&init, "cancelable", &JsValue::TRUE);
    let event = super::dom::construct("Event", &[&JsValue::from_str("submit"), &init])?;
    if proto_call("EventTarget", "dispatchEvent", form, &[&event])?.is_truthy() {
        proto_call("HTMLFormElement", "submit", form, &[])?;
    }
    Ok(())
}

/// Submits again once the result is posted, with the submit event stopped at the window so
/// the app's listeners do not see one submission twice.
fn load_later(form: HtmlFormElement, submitter: Option<Element>) -> Box<dyn FnOnce()> {
    Box::new(move || {
        let target = form.clone();
        let button = submitter.clone();
        let stop = listener(move |e| {
            let at = get(e, "target");
            if is_form(e, &target) || button.as_ref().is_some_and(|b| js_sys::Object::is(&at, b)) {
                let _ = proto_call("Event", "stopImmediatePropagation", e, &[]);
            }
        });
        // Where the submit is a click on the button (no requestSubmit), the click is
        // stopped too: the app saw the press once already.
        if listen(true, &stop, true).is_ok() && listen_to(true, "click", &stop, true).is_ok() {
            let _ = request_submit(&form, submitter.as_ref());
        }
        let _ = listen(false, &stop, true);
        let _ = listen_to(false, "click", &stop, true);
    })
}

/// Runs submit: picks the form and button, checks the destination and validity, asks
/// `confirm`, then submits and reports what the page did.
pub(crate) async fn run(
    config: &Config,
    asked_form: Option<&str>,
    asked_button: Option<&str>,
    ctx: &CallContext,
) -> Result<JsValue, String> {
    let Container::Form(form) = container(config, asked_form, true)? else {
        return Err("there is no form in scope".into());
    };
    let scope_root = root(config)?;
    let submitter = pick_submitter(&form, &scope_root, asked_button)?;
    submit(config, form, submitter, &scope_root, ctx).await
}

/// Submits `form` with `submitter` (submit_form's choice, or the button `click` presses):
/// checks the destination and validity, asks `confirm`, then submits and reports what the page
/// did.
pub(crate) async fn submit(
    config: &Config,
    form: HtmlFormElement,
    submitter: Option<Element>,
    scope_root: &Element,
    ctx: &CallContext,
) -> Result<JsValue, String> {
    let scope_root = scope_root.clone();
    let (action, method) = destination(&form, submitter.as_ref());
    let dialog = method == "dialog";
    // What the model may read of the destination: no query or fragment (an action left out is
    // the page's own address, query and all). The check sees the same, so its refusal does not
    // depend on the page's query either; scheme, credentials and origin are all kept.
    let shown = without_query(&action).unwrap_or_else(|| action.clone());
    if !dialog {
        if let Target::Refused(why) = check_target(&shown, &config.allow_origins) {
            return Err(format!("the form was not submitted: its action {why}"));
        }
    }
    let all = fields(&Container::Form(form.clone()), &scope_root)?;
    let invalid = invalid_fields(&all, &config.sensitive);
    if !invalid.is_empty() {
        let body = json_object(&mut [
            ("submitted", false.into()),
            ("reason", "the form is invalid".into()),
            ("invalid", Value::Array(invalid)),
        ]);
        return Ok(error_result(&client_tools_core::json::json_text(&body)));
    }
    let button = submitter.as_ref().map(|b| button_label(b, &scope_root));
    if let Some(confirm) = &config.confirm {
        let action_obj = super::js::object();
        let put = |k: &str, v: JsValue| super::js::set(&action_obj, k, &v);
        put("kind", "submit".into());
        put("form", form.clone().into());
        put(
            "submitter",
            button.clone().map(JsValue::from).unwrap_or(JsValue::NULL),
        );
        put("url", action.clone().into());
        let by = button
            .as_deref()
            .map(|b| format!(" with \"{b}\""))
            .unwrap_or_default();
        let summary = format!(
            "submit a form{by} to {action} ({})",
            method.to_ascii_uppercase()
        );
        put("summary", summary.into());
        put("method", method.clone().into());
        match super::js::promise::call_hook(confirm, &action_obj).await {
            Ok(v) if v.is_truthy() => {}
            Ok(_) => {
                return Ok(error_result(
                    "The user declined: the form was not submitted.",
                ))
            }
            Err(e) => {
                return Ok(error_result(&format!(
                    "The form was not submitted: the confirm hook failed: {e}"
                )))
            }
        }
    }
    if ctx.aborted() {
        return Ok(error_result(
            "The call was cancelled or timed out: the form was not submitted.",
        ));
    }
    if !connected(form.unchecked_ref()) {
        return Err("the form left the page before it could be submitted".into());
    }
    // What was checked (and confirmed) must be where the form still goes.
    if destination(&form, submitter.as_ref()) != (action.clone(), method.clone()) {
        return Err("the form was not submitted: its destination changed while waiting".into());
    }
    let watch = Watch::start(&form, !dialog && ctx.can_defer())?;
    request_submit(&form, submitter.as_ref())?;
    let (seen, by_app, held) = (
        watch.seen.get(),
        watch.prevented_by_app.get(),
        watch.held.get(),
    );
    drop(watch);
    if !seen {
        let body = json_object(&mut [
            ("submitted", false.into()),
            (
                "reason",
                "the browser fired no submit event (the form may be invalid or gone)".into(),
            ),
            (
                "invalid",
                Value::Array(invalid_fields(&all, &config.sensitive)),
            ),
        ]);
        return Ok(error_result(&client_tools_core::json::json_text(&body)));
    }
    let told = super::url::told(&shown, config.show_action_path);
    let what = if by_app {
        "the app handled the submit event".to_string()
    } else if dialog {
        "the dialog form closed its dialog".to_string()
    } else if held {
        if ctx.after_result(load_later(form.clone(), submitter.clone())) {
            format!("the page will load {told} ({method}) once this result is posted")
        } else {
            return Ok(error_result("The form was not submitted: it would load a new page, and this call gives no way to do that after its result."));
        }
    } else {
        format!("a navigation to {told} started")
    };
    Ok(ok_result(&json_object(&mut [
        ("submitted", true.into()),
        ("button", button.into()),
        ("outcome", what.into()),
    ])))
}
