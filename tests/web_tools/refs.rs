//! Refs checked on use (issue 40): a ref names an element still in the page, inside the root,
//! with the role and the name it had when it was handed out; else it is stale ("read the page
//! again"), read as an unknown ref reads. The name is compared when a person sees the element:
//! an element hidden since it was read is refused as hidden, not as stale.

use client_tools::tools::{
    click_tool, fill_form_tool, highlight_tool, read_page_tool, read_table_tool,
};
use wasm_bindgen_test::wasm_bindgen_test;

use crate::support::*;

fn rooted(fx: &Fixture) -> js_sys::Object {
    with(&options("{}"), "root", &fx.root)
}

/// The outline read_page gives of the fixture.
async fn outline(fx: &Fixture) -> String {
    let a = call(&read_page_tool(Some(rooted(fx))).unwrap(), "{}").await;
    assert!(!a.is_error, "{}", a.text);
    a.json()["page"].as_str().unwrap().to_string()
}

fn pressed(fx: &Fixture) -> String {
    fx.js("return window.__pressed.join()").as_string().unwrap()
}

/// Asserts that `a` is the stale answer, worded as for a ref never handed out.
async fn assert_stale(tool: &wasm_bindgen::JsValue, r: &str, a: &Answer) {
    let unknown = call(tool, &by_ref("e999999")).await;
    refused(a, "is stale or unknown: read the page again");
    assert_eq!(a.text.replace(r, "X"), unknown.text.replace("e999999", "X"));
}

const BUTTONS: &str = r#"<div style="background:#fff;color:#000">
  <button id="b" onclick="window.__pressed.push(this.textContent)">Archive</button>
  <button id="icon" aria-label="Remove" onclick="window.__pressed.push('icon')"><span style="display:inline-block;width:16px;height:16px;background:#000"></span></button>
  <span id="tab" role="tab" tabindex="0" onclick="window.__pressed.push('tab')">Orders</span>
  <a id="link" href="/invoices" onclick="event.preventDefault(); window.__pressed.push('link')">Invoices</a>
</div>"#;

#[wasm_bindgen_test]
async fn a_button_the_app_renamed_is_stale_until_the_page_is_read_again() {
    let fx = Fixture::new(BUTTONS);
    fx.js("window.__pressed = []; root.scrollIntoView({block: 'start'})");
    let page = outline(&fx).await;
    let (archive, icon) = (
        ref_on(&page, "button \"Archive\""),
        ref_on(&page, "button \"Remove\""),
    );
    fx.js("root.querySelector('#b').textContent = 'Delete'; root.querySelector('#icon').setAttribute('aria-label', 'Empty the bin')");
    let click = click_tool(Some(rooted(&fx))).unwrap();
    let highlight = highlight_tool(Some(rooted(&fx))).unwrap();
    for r in [&archive, &icon] {
        assert_stale(&click, r, &call(&click, &by_ref(r)).await).await;
        assert_stale(&highlight, r, &call(&highlight, &by_ref(r)).await).await;
    }
    assert_eq!(pressed(&fx), "", "nothing was pressed");
    // Read again: the same element keeps its ref, now with its new name, and is pressed.
    let page = outline(&fx).await;
    assert_eq!(ref_on(&page, "button \"Delete\""), archive, "{page}");
    assert_eq!(ref_on(&page, "button \"Empty the bin\""), icon, "{page}");
    let a = call(&click, &by_ref(&archive)).await;
    assert!(!a.is_error, "{}", a.text);
    assert_eq!(a.json()["name"], "Delete");
    assert_eq!(pressed(&fx), "Delete");
}

#[wasm_bindgen_test]
async fn an_element_whose_role_changed_is_stale() {
    let fx = Fixture::new(BUTTONS);
    fx.js("window.__pressed = []; root.scrollIntoView({block: 'start'})");
    let page = outline(&fx).await;
    let (tab, link) = (
        ref_on(&page, "tab \"Orders\""),
        ref_on(&page, "link \"Invoices\""),
    );
    // A tab turned into a button, a link that lost its address (now no control at all).
    fx.js("root.querySelector('#tab').setAttribute('role', 'button'); root.querySelector('#link').removeAttribute('href')");
    let click = click_tool(Some(rooted(&fx))).unwrap();
    for r in [&tab, &link] {
        assert_stale(&click, r, &call(&click, &by_ref(r)).await).await;
    }
    assert_eq!(pressed(&fx), "");
    let page = outline(&fx).await;
    assert_eq!(ref_on(&page, "button \"Orders\""), tab, "{page}");
}

#[wasm_bindgen_test]
async fn an_element_hidden_since_it_was_read_is_refused_as_hidden_not_stale() {
    let fx = Fixture::new(&format!(
        r#"{BUTTONS}<table style="background:#fff;color:#000"><tr><th>Invoice</th><th>Status</th></tr><tr id="r1"><td>1042</td><td>Paid</td></tr><tr><td>1043</td><td>Due</td></tr></table>"#
    ));
    fx.js("window.__pressed = []; root.scrollIntoView({block: 'start'})");
    let page = outline(&fx).await;
    let archive = ref_on(&page, "button \"Archive\"");
    let d = call(&read_table_tool(Some(rooted(&fx))).unwrap(), "{}")
        .await
        .json();
    let row = d["rows"][0]["ref"].as_str().unwrap().to_string();
    let click = click_tool(Some(rooted(&fx))).unwrap();
    let highlight = highlight_tool(Some(rooted(&fx))).unwrap();
    // Hidden (its text with it), and renamed while hidden: told as hidden, the reason a
    // person would give.
    fx.js("const b = root.querySelector('#b'); b.style.display = 'none'; b.textContent = 'Delete'; const r = root.querySelector('#r1'); r.style.display = 'none'; r.cells[0].textContent = '2077'");
    refused(
        &call(&click, &by_ref(&archive)).await,
        "Not clicked: the element is not visible on the page: hidden.",
    );
    refused(
        &call(&highlight, &by_ref(&row)).await,
        "Not highlighted: the element is not visible on the page: hidden.",
    );
    // Shown again under its new name: stale.
    fx.js(
        "root.querySelector('#b').style.display = ''; root.querySelector('#r1').style.display = ''",
    );
    assert_stale(&click, &archive, &call(&click, &by_ref(&archive)).await).await;
    assert_stale(&highlight, &row, &call(&highlight, &by_ref(&row)).await).await;
    assert_eq!(pressed(&fx), "");
}

#[wasm_bindgen_test]
async fn a_row_the_app_reused_for_other_data_is_stale() {
    // A virtualised grid keeps its row elements and writes other records into them.
    let fx = Fixture::new(
        r#"<table style="background:#fff;color:#000"><caption>Invoices</caption><tr><th>Invoice</th><th>Status</th></tr><tr id="r1"><td>1042</td><td>Paid</td></tr><tr><td>1043</td><td>Due</td></tr></table>"#,
    );
    fx.js("root.scrollIntoView({block: 'start'})");
    let read = read_table_tool(Some(rooted(&fx))).unwrap();
    let d = call(&read, "{}").await.json();
    let (table, row) = (
        d["table"].as_str().unwrap().to_string(),
        d["rows"][0]["ref"].as_str().unwrap().to_string(),
    );
    let highlight = highlight_tool(Some(rooted(&fx))).unwrap();
    fx.js("root.querySelector('#r1').cells[0].textContent = '2077'; root.querySelector('caption').textContent = 'Archived invoices'");
    assert_stale(&highlight, &row, &call(&highlight, &by_ref(&row)).await).await;
    let a = call(&read, &format!(r#"{{"table": "{table}"}}"#)).await;
    refused(&a, "is stale or unknown: read the page again");
    // Read again: the same row element, its ref taken again.
    let d = call(&read, "{}").await.json();
    assert_eq!(d["rows"][0]["ref"], row.as_str());
    assert_eq!(d["rows"][0]["cells"].to_string(), r#"["2077","Paid"]"#);
    let a = call(&highlight, &by_ref(&row)).await;
    assert!(!a.is_error, "{}", a.text);
}

#[wasm_bindgen_test]
async fn a_field_ref_whose_label_changed_fills_nothing() {
    let fx = Fixture::new(
        r#"<form id="f" style="background:#fff;color:#000"><label><span id="l">Name</span> <input name="n"></label><label>City <input name="c"></label></form>"#,
    );
    fx.js("root.scrollIntoView({block: 'start'})");
    let page = outline(&fx).await;
    let name = ref_on(&page, "textbox \"Name\"");
    fx.js("root.querySelector('#l').textContent = 'Card number'");
    let fill = fill_form_tool(Some(rooted(&fx))).unwrap();
    let a = call(&fill, &format!(r#"{{"fields": {{"{name}": "Ada"}}}}"#)).await;
    refused(&a, "no field in this form");
    assert_eq!(
        fx.js("return root.querySelector('[name=n]').value")
            .as_string()
            .unwrap(),
        ""
    );
}

#[wasm_bindgen_test]
async fn a_button_renamed_while_the_user_is_asked_is_not_pressed() {
    let fx = Fixture::new(BUTTONS);
    fx.js("window.__pressed = []; root.scrollIntoView({block: 'start'})");
    let archive = ref_on(&outline(&fx).await, "button \"Archive\"");
    let asked = with(
        &rooted(&fx),
        "confirm",
        &js_fn(
            "a",
            "window.__asked = a.summary; a.element.textContent = 'Delete'; return true",
        ),
    );
    let a = call(&click_tool(Some(asked)).unwrap(), &by_ref(&archive)).await;
    assert_eq!(
        fx.js("return window.__asked").as_string().unwrap(),
        "press \"Archive\""
    );
    refused(
        &a,
        "Not clicked: the element left the page or changed while waiting.",
    );
    assert_eq!(pressed(&fx), "");
}
