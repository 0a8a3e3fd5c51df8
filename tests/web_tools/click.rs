//! click (issue 40): presses what read_table lists in a row (its `controls`, by ref), only when a
//! person could: enabled, visible, not covered, inside the root, and matching the app's
//! `clickable` selectors when it gives some. Submit buttons follow submit_form's rules, links
//! navigate's; a page load waits until the result is posted.

use client_tools::tools::{click_tool, read_table_tool};
use serde_json::Value;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::support::*;

const ORDERS: &str = r#"<table style="background:#fff;color:#000"><tr><th>Order</th><th>Actions</th></tr>
  <tr><td>A-1</td><td><button id="archive" onclick="window.__pressed.push('archive')">Archive</button> <button disabled>Refund</button> <a href="/orders/a-1" id="open">Open</a></td></tr>
  <tr><td>A-2</td><td><button aria-disabled="true" onclick="window.__pressed.push('aria')">Ship</button> <span role="button" tabindex="0" onclick="window.__pressed.push('role')">Flag</span> <a href="https://evil.example/x">Elsewhere</a></td></tr>
  <tr><td>A-3</td><td><a href="javascript:window.__pressed.push('js')">Run</a> <a href="/f.pdf" download>Get</a> <a href="/new" target="_blank">New</a> <fieldset disabled style="display:inline;border:0;padding:0;margin:0"><button onclick="window.__pressed.push('fs')">Void</button></fieldset></td></tr>
  <tr><td>A-4</td><td><form id="f" onsubmit="event.preventDefault(); window.__pressed.push('submit')"><input name="q" required><button>Send</button></form> <button id="hideme" onclick="window.__pressed.push('hidden')">Hide</button> <span style="position:relative;display:inline-block"><button onclick="window.__pressed.push('covered')">Under</button><span style="position:absolute;left:0;top:0;right:0;bottom:0;background:#fff"></span></span></td></tr>
</table>"#;

fn rooted(fx: &Fixture) -> js_sys::Object {
    with(&options("{}"), "root", &fx.root)
}

/// The refs of each visible control of the table, by name, from read_table.
async fn controls(fx: &Fixture) -> Vec<(String, String, bool)> {
    let d = call(&read_table_tool(Some(rooted(fx))).unwrap(), "{}")
        .await
        .json();
    let mut out = Vec::new();
    for row in d["rows"].as_array().unwrap() {
        for c in row["controls"].as_array().cloned().unwrap_or_default() {
            out.push((
                c["name"].as_str().unwrap().to_string(),
                c["ref"].as_str().unwrap().to_string(),
                c.get("disabled") == Some(&Value::Bool(true)),
            ));
        }
    }
    out
}

fn ref_of(all: &[(String, String, bool)], name: &str) -> String {
    all.iter()
        .find(|c| c.0 == name)
        .unwrap_or_else(|| panic!("no control {name}: {all:?}"))
        .1
        .clone()
}

fn pressed(fx: &Fixture) -> String {
    fx.js("return window.__pressed.join()").as_string().unwrap()
}

#[wasm_bindgen_test]
async fn read_table_lists_the_controls_a_person_sees_and_click_presses_them() {
    let fx = Fixture::new(ORDERS);
    fx.js("window.__pressed = []; root.scrollIntoView({block: 'start'})");
    let all = controls(&fx).await;
    let names: Vec<&str> = all.iter().map(|c| c.0.as_str()).collect();
    // The covered button is not listed; the disabled ones are, marked.
    assert_eq!(
        names,
        [
            "Archive",
            "Refund",
            "Open",
            "Ship",
            "Flag",
            "Elsewhere",
            "Run",
            "Get",
            "New",
            "Void",
            "Send",
            "Hide"
        ]
    );
    assert!(all.iter().filter(|c| c.2).count() == 3, "{all:?}");
    let tool = click_tool(Some(rooted(&fx))).unwrap();
    let a = call(
        &tool,
        &format!(r#"{{"ref": "{}"}}"#, ref_of(&all, "Archive")),
    )
    .await;
    assert!(!a.is_error, "{}", a.text);
    assert_eq!(
        (a.json()["name"].as_str(), a.json()["outcome"].as_str()),
        (Some("Archive"), Some("clicked"))
    );
    let a = call(&tool, &format!(r#"{{"ref": "{}"}}"#, ref_of(&all, "Flag"))).await;
    assert!(!a.is_error, "{}", a.text);
    assert_eq!(pressed(&fx), "archive,role");
}

#[wasm_bindgen_test]
async fn click_refuses_what_a_person_could_not_press() {
    let fx = Fixture::new(ORDERS);
    fx.js("window.__pressed = []; root.scrollIntoView({block: 'start'})");
    let all = controls(&fx).await;
    let tool = click_tool(Some(rooted(&fx))).unwrap();
    let press = |name: &str| format!(r#"{{"ref": "{}"}}"#, ref_of(&all, name));
    for (name, why) in [
        ("Refund", "Not clicked: the element is disabled."),
        ("Ship", "Not clicked: the element is disabled."),
        ("Void", "Not clicked: the element is disabled."),
        ("Elsewhere", "leads to another site (https://evil.example)"),
        ("Run", "uses the javascript: scheme"),
        ("Get", "Not clicked: the link downloads a file."),
        ("New", "Not clicked: the link opens another window."),
    ] {
        refused(&call(&tool, &press(name)).await, why);
    }
    // Hidden since it was read: refused, saying why.
    fx.js("document.getElementById('hideme').style.visibility = 'hidden'");
    refused(
        &call(&tool, &press("Hide")).await,
        "Not clicked: the element is not visible on the page: hidden.",
    );
    // A row's ref names no button.
    let d = call(&read_table_tool(Some(rooted(&fx))).unwrap(), "{}")
        .await
        .json();
    let row = d["rows"][0]["ref"].as_str().unwrap().to_string();
    refused(
        &call(&tool, &format!(r#"{{"ref": "{row}"}}"#)).await,
        "names no button, link, tab or menu item",
    );
    refused(
        &call(&tool, r#"{"ref": "e999999"}"#).await,
        "stale or unknown",
    );
    refused(&call(&tool, "{}").await, "ref is missing");
    refused(&call(&tool, r#"{"ref": 4}"#).await, "ref must be a string");
    // The app's `clickable` selectors leave the rest out.
    let only = click_tool(Some(with(
        &rooted(&fx),
        "clickable",
        &js_sys::JSON::parse(r##"["#archive"]"##).unwrap(),
    )))
    .unwrap();
    refused(
        &call(&only, &press("Flag")).await,
        "the app does not let this tool press that element",
    );
    assert_eq!(pressed(&fx), "");
    assert!(click_tool(Some(with(
        &rooted(&fx),
        "clickable",
        &js_sys::JSON::parse(r#"["[["]"#).unwrap()
    )))
    .is_err());
}

#[wasm_bindgen_test]
async fn a_covered_button_is_refused_as_covered() {
    let fx = Fixture::new(
        r#"<table><tr><th>A</th></tr><tr><td><button id="b" onclick="window.__pressed.push('b')">Go</button></td></tr></table>"#,
    );
    fx.js("window.__pressed = []; root.scrollIntoView({block: 'start'})");
    let all = controls(&fx).await;
    fx.js("const b = document.getElementById('b').getBoundingClientRect(); const lid = document.createElement('div'); lid.id = 'lid'; lid.style = `position:fixed;left:${b.left - 2}px;top:${b.top - 2}px;width:${b.width + 4}px;height:${b.height + 4}px;background:#fff;z-index:9`; document.body.append(lid);");
    let a = call(
        &click_tool(Some(rooted(&fx))).unwrap(),
        &format!(r#"{{"ref": "{}"}}"#, ref_of(&all, "Go")),
    )
    .await;
    fx.js("document.getElementById('lid').remove()");
    assert_eq!(
        a.text,
        "Not clicked: the element is not visible on the page: covered."
    );
    assert_eq!(pressed(&fx), "");
}

#[wasm_bindgen_test]
async fn links_load_after_the_result_and_submit_buttons_follow_submit_forms_rules() {
    let fx = Fixture::new(ORDERS);
    fx.js("window.__pressed = []; root.scrollIntoView({block: 'start'})");
    let all = controls(&fx).await;
    let before = web_sys::window().unwrap().location().href().unwrap();
    let tool = click_tool(Some(rooted(&fx))).unwrap();
    let a = call(&tool, &format!(r#"{{"ref": "{}"}}"#, ref_of(&all, "Open"))).await;
    assert!(!a.is_error, "{}", a.text);
    assert_eq!(
        a.json()["outcome"],
        "the page will load this site once this result is posted"
    );
    assert_eq!(a.deferred, 1);
    assert_eq!(
        web_sys::window().unwrap().location().href().unwrap(),
        before
    );
    // A router that takes the click over: nothing is deferred.
    fx.js("document.getElementById('open').addEventListener('click', (e) => { e.preventDefault(); window.__pressed.push('router'); })");
    let a = call(&tool, &format!(r#"{{"ref": "{}"}}"#, ref_of(&all, "Open"))).await;
    assert_eq!(
        (a.json()["outcome"].as_str(), a.deferred),
        (Some("the app handled the click"), 0)
    );
    // The submit button: the form is invalid (q is required), so nothing is sent.
    let send = format!(r#"{{"ref": "{}"}}"#, ref_of(&all, "Send"));
    let a = call(&tool, &send).await;
    refused(&a, "the form is invalid");
    fx.js("root.querySelector('[name=q]').value = 'x'");
    let no = js_fn(
        "a",
        "window.__asked = a.kind + ': ' + a.summary; return false;",
    );
    let asking = click_tool(Some(with(&rooted(&fx), "confirm", &no))).unwrap();
    refused(&call(&asking, &send).await, "declined");
    assert!(fx
        .js("return window.__asked")
        .as_string()
        .unwrap()
        .starts_with("submit: submit a form with \"Send\""));
    let a = call(&tool, &send).await;
    assert!(!a.is_error, "{}", a.text);
    assert_eq!(a.json()["outcome"], "the app handled the submit event");
    // Any other press asks confirm with what a person reads on it.
    refused(
        &call(
            &asking,
            &format!(r#"{{"ref": "{}"}}"#, ref_of(&all, "Archive")),
        )
        .await,
        "Not clicked: the user declined.",
    );
    assert_eq!(
        fx.js("return window.__asked").as_string().unwrap(),
        "click: press \"Archive\""
    );
    assert_eq!(pressed(&fx), "router,submit");
}
