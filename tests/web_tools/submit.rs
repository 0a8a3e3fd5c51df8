//! submit_form: requestSubmit from the prototype, invalid forms untouched, confirm, and the
//! page load held until after the result.

use client_tools::tools::submit_form_tool;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::support::*;

fn submit(fx: &Fixture, extra: &str) -> wasm_bindgen::JsValue {
    submit_form_tool(Some(with(&options(extra), "root", &fx.root))).unwrap()
}

/// Counts submit events at the form and records the submitter; `prevent` makes the app handle them.
fn listen(fx: &Fixture, prevent: bool) {
    fx.js(&format!(
        "root.submits = 0; root.querySelector('form').addEventListener('submit', e => {{
           root.submits++; root.submitter = e.submitter && e.submitter.textContent; if ({prevent}) e.preventDefault(); }});"
    ));
}

fn submits(fx: &Fixture) -> f64 {
    fx.js("return root.submits").as_f64().unwrap()
}

#[wasm_bindgen_test]
async fn an_invalid_form_is_not_submitted_and_each_invalid_field_is_named() {
    let fx = Fixture::new(
        r#"<form><label>Email <input name="email" type="email" required></label><label>Age <input name="age" type="number" min="18" value="3"></label><button>Send</button></form>"#,
    );
    listen(&fx, true);
    let a = call(&submit(&fx, "{}"), "{}").await;
    refused(&a, "the form is invalid");
    let d = a.json();
    assert_eq!(d["submitted"], false);
    assert_eq!(d["invalid"][0]["field"], "email");
    assert!(!d["invalid"][0]["validationMessage"]
        .as_str()
        .unwrap()
        .is_empty());
    assert_eq!(d["invalid"][1]["label"], "Age");
    assert_eq!(submits(&fx), 0.0);
}

#[wasm_bindgen_test]
async fn a_valid_form_is_submitted_with_its_button_even_when_controls_shadow_form_methods() {
    let fx = Fixture::new(
        r#"<form id="f"><input name="submit" value="x"><input name="requestSubmit" value="y"><input name="elements"><input name="action"><input name="getAttribute"><input name="querySelectorAll"><input name="id">
        <button name="draft" value="1">Save draft</button><button name="go">Publish</button></form>"#,
    );
    listen(&fx, true);
    let a = call(&submit(&fx, "{}"), r#"{"button": "Publish"}"#).await;
    assert!(!a.is_error, "{}", a.text);
    let d = a.json();
    assert_eq!(d["submitted"], true);
    assert_eq!(d["outcome"], "the app handled the submit event");
    assert_eq!(d["button"], "Publish");
    assert_eq!(submits(&fx), 1.0);
    assert_eq!(
        fx.js("return root.submitter").as_string().unwrap(),
        "Publish"
    );
    refused(
        &call(&submit(&fx, "{}"), r#"{"button": "Delete everything"}"#).await,
        "no submit button",
    );
}

#[wasm_bindgen_test]
async fn confirm_can_decline_and_sees_the_action() {
    let fx =
        Fixture::new(r#"<form id="order" action="/pay" method="post"><button>Pay</button></form>"#);
    listen(&fx, true);
    fx.js("root.asked = null;");
    let confirm = js_fn("a", "document.querySelector('form#order').parentNode.asked = a.kind + ' ' + a.method + ' ' + a.submitter + ' ' + a.url.endsWith('/pay') + ' ' + (a.form.id) + ' | ' + a.summary.replace(/https?:[^ ]*pay/, 'URL'); return Promise.resolve(false);");
    let tool = submit_form_tool(Some(with(
        &with(&options("{}"), "root", &fx.root),
        "confirm",
        &confirm,
    )))
    .unwrap();
    let a = call(&tool, "{}").await;
    refused(&a, "declined");
    assert_eq!(submits(&fx), 0.0);
    assert_eq!(
        fx.js("return root.asked").as_string().unwrap(),
        "submit post Pay true order | submit a form with \"Pay\" to URL (POST)"
    );

    let throws = js_fn("a", "throw new Error('no human around')");
    let tool = submit_form_tool(Some(with(
        &with(&options("{}"), "root", &fx.root),
        "confirm",
        &throws,
    )))
    .unwrap();
    refused(&call(&tool, "{}").await, "no human around");
    assert_eq!(submits(&fx), 0.0);
}

#[wasm_bindgen_test]
async fn a_page_load_waits_for_the_result_and_a_cancelled_call_submits_nothing() {
    let fx = Fixture::new(
        r#"<form action="/next"><input name="q" value="1"><button>Go</button></form>"#,
    );
    listen(&fx, false);
    let tool = submit(&fx, "{}");
    let cancelled = call_with(&tool, "{}", true).await;
    refused(&cancelled, "cancelled");
    assert_eq!(submits(&fx), 0.0);
    // The app lets the event through: the tool holds the load and hands it to afterResult
    // (not run here: it would leave the test page).
    let a = call(&tool, "{}").await;
    assert!(!a.is_error, "{}", a.text);
    assert!(
        a.json()["outcome"]
            .as_str()
            .unwrap()
            .contains("once this result is posted"),
        "{}",
        a.text
    );
    assert_eq!(a.deferred, 1);
    assert_eq!(submits(&fx), 1.0);
}

#[wasm_bindgen_test]
async fn a_destination_changed_while_confirm_waited_is_not_submitted() {
    let fx = Fixture::new(r#"<form id="swap" action="/ok"><button>Go</button></form>"#);
    listen(&fx, true);
    let sneaky = js_fn(
        "a",
        "a.form.setAttribute('action', 'javascript:alert(1)'); return true;",
    );
    let tool = submit_form_tool(Some(with(
        &with(&options("{}"), "root", &fx.root),
        "confirm",
        &sneaky,
    )))
    .unwrap();
    refused(&call(&tool, "{}").await, "destination changed");
    assert_eq!(submits(&fx), 0.0);
}

/// Where the browser has no `requestSubmit` (Safari before 16) the form goes as a press of the
/// button sends it: the same submit event with its submitter, the app's handling and the held
/// page load; with no button, after the form's own validation, a cancelable submit event.
#[wasm_bindgen_test]
async fn without_request_submit_a_form_is_submitted_as_a_press_would() {
    let page = |body: &str| {
        js_sys::Function::new_no_args(body)
            .call0(&wasm_bindgen::JsValue::NULL)
            .unwrap()
    };
    page(
        "window.__requestSubmit = Object.getOwnPropertyDescriptor(HTMLFormElement.prototype, 'requestSubmit'); \
         delete HTMLFormElement.prototype.requestSubmit; \
         if ('requestSubmit' in HTMLFormElement.prototype) throw new Error('requestSubmit stayed');",
    );
    let handled = Fixture::new(
        r#"<form><input name="q" value="1"><button name="draft">Save draft</button><button name="go">Publish</button></form>"#,
    );
    listen(&handled, true);
    let by_button = call(&submit(&handled, "{}"), r#"{"button": "Publish"}"#).await;
    let held = Fixture::new(
        r#"<form action="/next"><input name="q" value="1"><button>Go</button></form>"#,
    );
    listen(&held, false);
    let load = call(&submit(&held, "{}"), "{}").await;
    let buttonless = Fixture::new(r#"<form><input name="q" value="1"></form>"#);
    listen(&buttonless, true);
    let no_button = call(&submit(&buttonless, "{}"), "{}").await;
    page(
        "Object.defineProperty(HTMLFormElement.prototype, 'requestSubmit', window.__requestSubmit); \
         delete window.__requestSubmit;",
    );

    assert!(!by_button.is_error, "{}", by_button.text);
    assert_eq!(
        by_button.json()["outcome"],
        "the app handled the submit event"
    );
    assert_eq!(submits(&handled), 1.0);
    assert_eq!(
        handled.js("return root.submitter").as_string().unwrap(),
        "Publish"
    );
    assert!(!load.is_error, "{}", load.text);
    assert!(
        load.json()["outcome"]
            .as_str()
            .unwrap()
            .contains("once this result is posted"),
        "{}",
        load.text
    );
    assert_eq!(load.deferred, 1);
    assert_eq!(submits(&held), 1.0);
    assert!(!no_button.is_error, "{}", no_button.text);
    assert_eq!(
        no_button.json()["outcome"],
        "the app handled the submit event"
    );
    assert_eq!(submits(&buttonless), 1.0);
}
