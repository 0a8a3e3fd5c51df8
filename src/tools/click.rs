//! The click tool: presses a button, link, tab or menu item by the ref another tool gave, as a
//! person would, and only one a person could press: enabled, visible by the visibility rule
//! (covered included: the hit test at its centre must land on it), inside one of the tool's
//! roots, with the role and name it had when the ref was handed out (`refs`), and, when the
//! app gives `clickable` selectors, matching one. A submit button goes through
//! `submit_form`'s rules; a link through `navigate`'s (http(s) only, the page's own origin or
//! `allowOrigins`, no download, no new window) and its page load waits until the result is
//! posted; everything else asks the app's `confirm` hook first, when it has one.

use std::cell::Cell;
use std::rc::Rc;

use client_tools_core::quote::Quoted;
use wasm_bindgen::JsValue;
use web_sys::HtmlFormElement;

use super::dom::{cast, matches};
use super::js::promise::{call_hook, next_task};
use super::js::{
    bool_prop, call_method, error_result, get, object, ok_result, proto_call, set, string_prop,
    CallContext,
};
use super::options::Config;
use super::roles::{name, role, CLICKABLE};
use super::scope::{attr, contains};
use super::submit::{listen_to, listener};
use super::url::{check_target, told, Target};
use super::{json_object, refs, visible};

/// Buttons that submit their form.
const SUBMITS: &str = "button:not([type=button]):not([type=reset]):not([type=menu]),input[type=submit],input[type=image]";

/// A refusal the model reads: `Not clicked: <why>.`
fn not_clicked(why: &str) -> Result<JsValue, String> {
    Ok(error_result(&format!("Not clicked: {why}.")))
}

/// Runs click: `asked` is the model's ref.
pub(crate) async fn run(
    config: &Config,
    asked: Option<&str>,
    ctx: &CallContext,
) -> Result<JsValue, String> {
    let roots = super::roots::roots(config)?;
    let Some(asked) = asked else {
        return Err(
            "ref is missing: pass the ref of a button or link as read_table gave it".into(),
        );
    };
    let (el, root) = refs::resolve(asked, &roots)?;
    if matches(&el, CLICKABLE) != Ok(true) {
        return not_clicked("the ref names no button, link, tab or menu item");
    }
    if !config.clickable.is_empty() && !config.clickable.iter().any(|s| matches(&el, s) == Ok(true))
    {
        return not_clicked("the app does not let this tool press that element");
    }
    if matches(&el, ":disabled,[aria-disabled=true]") == Ok(true) {
        return not_clicked("the element is disabled");
    }
    visible::reveal(&el);
    if let Err(why) = visible::control(&el, true) {
        return not_clicked(&format!(
            "the element is not visible on the page: {}",
            why.describe()
        ));
    }
    let Some(role) = role(&el) else {
        return not_clicked("the ref names no button, link, tab or menu item");
    };
    let (name, shown) = name(&el, &root, &role);
    if matches(&el, SUBMITS) == Ok(true) {
        if let Some(form) = cast::<HtmlFormElement>(get(&el, "form"), "HTMLFormElement") {
            if !contains(&root, form.as_ref()) {
                return not_clicked("the button's form is outside the tool's view");
            }
            return super::submit::submit(config, form, Some(el), &root, ctx).await;
        }
    }
    let link = matches(&el, "a[href]") == Ok(true);
    let mut href = String::new();
    if link {
        if attr(&el, "download").is_some() {
            return not_clicked("the link downloads a file");
        }
        if attr(&el, "target").is_some_and(|t| !t.is_empty() && t != "_self") {
            return not_clicked("the link opens another window");
        }
        href = string_prop(&el, "href");
        if let Target::Refused(why) = check_target(&href, &config.allow_origins) {
            return not_clicked(&format!("the link {why}"));
        }
    }
    if let Some(confirm) = &config.confirm {
        let action = object();
        set(&action, "kind", &"click".into());
        set(&action, "element", &el);
        let summary = if link {
            format!("open the link {} ({href})", Quoted(&name))
        } else {
            format!("press {}", Quoted(&name))
        };
        set(&action, "summary", &summary.into());
        set(&action, "url", &href.clone().into());
        match call_hook(confirm, &action).await {
            Ok(v) if v.is_truthy() => {}
            Ok(_) => return not_clicked("the user declined"),
            Err(e) => return not_clicked(&format!("the confirm hook failed: {e}")),
        }
    }
    if ctx.aborted() {
        return not_clicked("the call was cancelled or timed out");
    }
    // Checked as at the start: in the page, inside a root, and with the role and name the
    // user was asked about.
    if !refs::resolve(asked, &roots).is_ok_and(|(now, _)| js_sys::Object::is(&now, &el)) {
        return not_clicked("the element left the page or changed while waiting");
    }
    // The app's handlers run first; a link's page load it did not take over is held back
    // (the listener runs last, at the window) and starts once the result is posted.
    let (held, prevented) = (Rc::new(Cell::new(false)), Rc::new(Cell::new(false)));
    let (h, p, target) = (held.clone(), prevented.clone(), el.clone());
    let watch = listener(move |e| {
        if !js_sys::Object::is(&get(e, "target"), &target) {
            return;
        }
        if bool_prop(e, "defaultPrevented") {
            p.set(true);
        } else if link {
            let _ = proto_call("Event", "preventDefault", e, &[]);
            h.set(true);
        }
    });
    listen_to(true, "click", &watch, false)?;
    let pressed = proto_call("HTMLElement", "click", &el, &[]);
    let _ = listen_to(false, "click", &watch, false);
    pressed?;
    let outcome = if held.get() {
        let go = href.clone();
        let later = Box::new(move || {
            if let Some(w) = super::dom::window() {
                let _ = call_method(&get(&w, "location"), "assign", &[&go.into()]);
            }
        });
        if !ctx.after_result(later) {
            return not_clicked("the link would load a new page, and this call gives no way to do that after its result");
        }
        format!(
            "the page will load {} once this result is posted",
            told(&href, false)
        )
    } else if prevented.get() {
        "the app handled the click".to_string()
    } else {
        "clicked".to_string()
    };
    // The app's own updates (a re-render, its new tools) land before the result.
    next_task().await;
    let mut out = vec![("clicked", asked.into()), ("name", name.into())];
    if !shown {
        out.push(("nameShown", false.into()));
    }
    out.push(("outcome", outcome.into()));
    Ok(ok_result(&json_object(&mut out)))
}
