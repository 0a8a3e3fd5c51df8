//! read_table and highlight (issue 40): a table as a person sees it, with a ref per row that
//! highlight takes; hidden text, hidden columns, controls' values and attributes never reach
//! the model; stale refs, refs outside the root and unseen elements are refused.

use client_tools::tools::{highlight_tool, read_table_tool};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::support::*;
use crate::visibility::{seen_rows, techniques, MARK};

const INVOICES: &str = r#"<table id="inv" data-secret="DATA-SECRET" style="background:#fff;color:#000">
  <caption>Invoices</caption>
  <thead><tr><th aria-sort="ascending">Invoice</th><th>Status</th><th style="display:none">Internal</th><th>Note</th></tr></thead>
  <tbody>
    <tr id="row-1042" data-id="ROW-ID-SECRET"><td>1042</td><td>Paid</td><td style="display:none">HIDDEN-COLUMN</td><td>ok<span style="display:none">HIDDEN-TEXT</span> <input value="INPUT-VALUE"></td></tr>
    <tr><td>1043</td><td>Due</td><td style="display:none">HIDDEN-COLUMN</td><td><!-- COMMENT --></td></tr>
    <tr style="display:none"><td>HIDDEN-ROW</td><td></td><td></td><td></td></tr>
    <tr><td>1044</td><td>Late</td><td style="display:none">HIDDEN-COLUMN</td><td></td></tr>
  </tbody>
</table>"#;

fn rooted(fx: &Fixture) -> js_sys::Object {
    with(&options("{}"), "root", &fx.root)
}

#[wasm_bindgen_test]
async fn a_table_reads_as_a_person_sees_it_with_a_ref_per_row() {
    let fx = Fixture::new(INVOICES);
    let a = call(&read_table_tool(Some(rooted(&fx))).unwrap(), "{}").await;
    assert!(!a.is_error, "{}", a.text);
    for secret in [
        "DATA-SECRET",
        "ROW-ID-SECRET",
        "row-1042",
        "HIDDEN-COLUMN",
        "Internal",
        "HIDDEN-TEXT",
        "INPUT-VALUE",
        "COMMENT",
        "HIDDEN-ROW",
    ] {
        assert!(
            !a.text.contains(secret),
            "{secret} reached the model: {}",
            a.text
        );
    }
    let d = a.json();
    assert_eq!(d["caption"], "Invoices");
    assert_eq!(
        d["columns"].to_string(),
        r#"[{"name":"Invoice","sort":"ascending"},{"name":"Status"},{"name":"Note"}]"#
    );
    let rows = d["rows"].as_array().unwrap();
    let cells: Vec<String> = rows.iter().map(|r| r["cells"].to_string()).collect();
    assert_eq!(
        cells,
        [
            r#"["1042","Paid","ok"]"#,
            r#"["1043","Due",""]"#,
            r#"["1044","Late",""]"#
        ]
    );
    assert_eq!(
        (d["rendered"].as_u64(), d["shown"].as_u64()),
        (Some(3), Some(3))
    );
    // Refs are opaque, distinct, and the same on a second read of the same elements.
    let refs: Vec<&str> = rows.iter().map(|r| r["ref"].as_str().unwrap()).collect();
    assert!(refs.iter().all(|r| r.starts_with('e')), "{refs:?}");
    let again = call(&read_table_tool(Some(rooted(&fx))).unwrap(), "{}")
        .await
        .json();
    let refs2: Vec<&str> = (again["rows"].as_array().unwrap().iter())
        .map(|r| r["ref"].as_str().unwrap())
        .collect();
    assert_eq!(refs, refs2);
    assert_eq!(d["table"], again["table"]);
    // No attribute or property of the page holds a ref.
    assert!(
        fx.js("const r = root.querySelector('tbody tr'); return Object.keys(r).length")
            .as_f64()
            == Some(0.0)
    );
}

#[wasm_bindgen_test]
async fn rows_come_a_page_at_a_time_and_counts_are_checked() {
    let rows: String = (1..=150)
        .map(|i| format!("<tr><td>r{i}</td></tr>"))
        .collect();
    let fx = Fixture::new(&format!(
        r#"<div style="height:200px;overflow:auto"><table aria-rowcount="5001"><tr><th>N</th></tr>{rows}</table></div>"#
    ));
    // In a scroll box (an app shell's), rows past the document's end are read too.
    fx.js("root.scrollIntoView({block: 'start'})");
    let tool = read_table_tool(Some(rooted(&fx))).unwrap();
    let d = call(&tool, "{}").await.json();
    assert_eq!(d["shown"], 20);
    assert_eq!(d["rows"][0]["cells"][0], "r1");
    assert_eq!(
        (d["rendered"].as_u64(), d["more"].as_bool()),
        (Some(150), Some(true))
    );
    assert_eq!(d["ariaRowCount"], 5001);
    let d = call(&tool, r#"{"from": 141, "count": 100}"#).await.json();
    assert_eq!(
        (d["from"].as_u64(), d["shown"].as_u64()),
        (Some(141), Some(10))
    );
    assert_eq!(d["rows"][9]["cells"][0], "r150");
    assert!(d.get("more").is_none());
    refused(
        &call(&tool, r#"{"count": 101}"#).await,
        "count must be a whole number from 1 to 100",
    );
    refused(&call(&tool, r#"{"count": 0}"#).await, "count must be");
    refused(
        &call(&tool, r#"{"from": 0}"#).await,
        "from must be a whole number",
    );
    refused(&call(&tool, r#"{"from": 1.5}"#).await, "from must be");
    refused(&call(&tool, r#"{"from": "2"}"#).await, "from must be");
    refused(
        &call(&tool, r#"{"table": 3}"#).await,
        "table must be a string",
    );
    refused(&call(&tool, "[]").await, "must be a JSON object");
}

#[wasm_bindgen_test]
async fn a_table_is_named_by_ref_caption_or_place_never_by_selector() {
    let fx = Fixture::new(&format!(
        r#"{INVOICES}<table id="second"><caption>Payments</caption><tr><th>P</th></tr><tr><td>p1</td></tr></table>
        <table style="display:none" id="hidden-table"><caption>Secret table</caption><tr><td>x</td></tr></table>"#
    ));
    let tool = read_table_tool(Some(rooted(&fx))).unwrap();
    let a = call(&tool, "{}").await;
    refused(
        &a,
        r#"2 tables in scope; pass one of: table 1 ("Invoices"), table 2 ("Payments")"#,
    );
    assert!(!a.text.contains("Secret"), "{}", a.text);
    let d = call(&tool, r#"{"table": "Payments"}"#).await.json();
    assert_eq!(d["rows"][0]["cells"][0], "p1");
    let second_ref = d["table"].as_str().unwrap().to_string();
    let d = call(&tool, r#"{"table": "table 1"}"#).await.json();
    assert_eq!(d["caption"], "Invoices");
    let d = call(&tool, &format!(r#"{{"table": "{second_ref}"}}"#))
        .await
        .json();
    assert_eq!(d["caption"], "Payments");
    for loc in [
        "#second",
        "table:has(td)",
        "Secret table",
        "table 3",
        "table 01",
        "hidden-table",
    ] {
        refused(
            &call(&tool, &format!(r#"{{"table": "{loc}"}}"#)).await,
            "no table in scope is called",
        );
    }
    // A row's ref is not a table.
    let row = d["rows"][0]["ref"].as_str().unwrap().to_string();
    refused(
        &call(&tool, &format!(r#"{{"table": "{row}"}}"#)).await,
        "is not a table in scope",
    );
}

/// A table narrower than its caption is read. In Firefox it is two boxes, the caption and the
/// grid beneath it, and the centre of their bounding box lies in neither: on main the hit test
/// there found the page behind it and the table counted as covered ("there is no table in
/// scope"). With an opaque box over its grid alone it is refused (its caption still shows).
#[wasm_bindgen_test]
async fn a_table_narrower_than_its_caption_is_read_and_refused_when_its_grid_is_covered() {
    let fx = Fixture::new(
        r#"<table style="background:#fff;color:#000"><caption style="white-space:nowrap">A caption much wider than the grid</caption><tr><th>P</th></tr><tr><td>p1</td></tr></table>"#,
    );
    fx.js("window.scrollTo({top: 0, left: 0, behavior: 'instant'}); root.scrollIntoView({block: 'start', behavior: 'instant'})");
    let tool = read_table_tool(Some(rooted(&fx))).unwrap();
    let a = call(&tool, "{}").await;
    assert!(!a.is_error, "{}", a.text);
    assert_eq!(a.json()["rows"][0]["cells"][0], "p1", "{}", a.text);
    // read_table scrolls nothing: a fixed box stays over the grid.
    fx.js("const g = root.querySelector('tbody').getBoundingClientRect(); const lid = document.createElement('span'); lid.style = `position:fixed;left:${g.left - 2}px;top:${g.top - 2}px;width:${g.width + 4}px;height:${g.height + 4}px;background:#fff`; root.append(lid);");
    refused(&call(&tool, "{}").await, "there is no table in scope");
}

#[wasm_bindgen_test]
async fn no_hidden_text_reaches_the_model_through_a_cell() {
    let mut wrong = Vec::new();
    for (hidden, rows) in [(true, techniques()), (false, seen_rows())] {
        for (name, text, _) in rows {
            let fx = Fixture::new(&format!(
                r#"<table style="background:#fff;color:#000"><tr><th>Name</th></tr><tr><td>Ada {text}</td></tr></table>"#
            ));
            fx.js("root.scrollIntoView({block: 'start'})");
            let a = call(&read_table_tool(Some(rooted(&fx))).unwrap(), "{}").await;
            if a.is_error || !a.text.contains("Ada") || a.text.contains(MARK) == hidden {
                wrong.push(format!("{name} (hidden: {hidden}): {}", a.text));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The SDK's outlines on the page: fixed boxes under `<html>` that pointers pass through.
fn overlays() -> f64 {
    js_sys::Function::new_no_args(
        "return [...document.documentElement.children].filter((e) => { const s = getComputedStyle(e); return e.tagName === 'DIV' && s.position === 'fixed' && s.pointerEvents === 'none'; }).length",
    )
    .call0(&JsValue::NULL)
    .unwrap()
    .as_f64()
    .unwrap()
}

#[wasm_bindgen_test]
async fn highlight_outlines_a_row_by_ref_until_the_next_input() {
    let fx = Fixture::new(INVOICES);
    let d = call(&read_table_tool(Some(rooted(&fx))).unwrap(), "{}")
        .await
        .json();
    let (r1, r2) = (
        d["rows"][0]["ref"].as_str().unwrap().to_string(),
        d["rows"][1]["ref"].as_str().unwrap().to_string(),
    );
    let tool = highlight_tool(Some(rooted(&fx))).unwrap();
    let a = call(&tool, &format!(r#"{{"ref": "{r1}"}}"#)).await;
    assert!(!a.is_error, "{}", a.text);
    assert_eq!(a.json()["highlighted"], r1.as_str());
    assert_eq!(overlays(), 1.0);
    // The drawing is in a closed shadow root the page cannot read.
    let doc = web_sys::window().unwrap().document().unwrap();
    let host = doc
        .document_element()
        .unwrap()
        .last_element_child()
        .unwrap();
    assert!(js_sys::Reflect::get(&host, &"shadowRoot".into())
        .unwrap()
        .is_null());
    // The next highlight replaces it; the user's next key press clears it.
    call(&tool, &format!(r#"{{"ref": "{r2}"}}"#)).await;
    assert_eq!(overlays(), 1.0);
    fx.js("window.dispatchEvent(new KeyboardEvent('keydown', {key: 'a'}))");
    assert_eq!(overlays(), 0.0);
    call(&tool, &format!(r#"{{"ref": "{r2}"}}"#)).await;
    let a = call(&tool, r#"{"clear": true}"#).await;
    assert!(!a.is_error, "{}", a.text);
    assert_eq!(overlays(), 0.0);
    refused(
        &call(&tool, r#"{"clear": true, "ref": "e1"}"#).await,
        "not both",
    );
    refused(
        &call(&tool, r#"{"clear": "yes"}"#).await,
        "clear must be true or false",
    );
    refused(&call(&tool, "{}").await, "ref is missing");
    refused(
        &call_js(&tool, "return undefined").await,
        "must be a JSON object",
    );
}

#[wasm_bindgen_test]
async fn highlight_refuses_stale_outside_and_unseen_elements() {
    let fx = Fixture::new(&format!(
        r#"<div id="inner">{INVOICES}</div><p>outside</p>"#
    ));
    let inner = fx.el("#inner");
    // Refs handed out by a tool that sees the whole fixture.
    let d = call(&read_table_tool(Some(rooted(&fx))).unwrap(), "{}")
        .await
        .json();
    let row = |i: usize| d["rows"][i]["ref"].as_str().unwrap().to_string();
    let scoped = highlight_tool(Some(with(&options("{}"), "root", &inner))).unwrap();
    let unknown = call(&scoped, r#"{"ref": "e999999"}"#).await;
    refused(&unknown, "stale or unknown");
    for bad in ["E1", "e-1", "e+1", "1", "#row-1042", "tr", "e1 ", ""] {
        let a = call(&scoped, &format!(r#"{{"ref": "{bad}"}}"#)).await;
        assert!(a.is_error, "{bad}: {}", a.text);
    }
    // A ref of an element removed from the page is stale, and reads as an unknown one does.
    fx.js("root.querySelector('tbody tr:last-child').remove()");
    let gone = call(&scoped, &format!(r#"{{"ref": "{}"}}"#, row(2))).await;
    assert_eq!(
        gone.text.replace(&row(2), "X"),
        unknown.text.replace("e999999", "X")
    );
    // A row hidden since it was read, and one under an opaque box, are refused and say why.
    fx.js("root.querySelector('tbody tr').style.visibility = 'hidden'");
    refused(
        &call(&scoped, &format!(r#"{{"ref": "{}"}}"#, row(0))).await,
        "not visible on the page: hidden",
    );
    // The row is scrolled into view first and the lid laid where it then is: scrolling after
    // would move the row from under the fixed lid, wherever the page can scroll (WebKit's test
    // page can; Chromium's and Firefox's, no taller than the window there, did not move).
    fx.js("const r = root.querySelectorAll('tbody tr')[1]; r.scrollIntoView({block: 'center', behavior: 'instant'}); const b = r.getBoundingClientRect(); const lid = document.createElement('div'); lid.style = `position:fixed;left:0;top:${b.top - 5}px;width:100vw;height:${b.height + 10}px;background:#fff;z-index:9`; lid.id = 'lid'; document.body.append(lid);");
    let covered = call(&scoped, &format!(r#"{{"ref": "{}"}}"#, row(1))).await;
    fx.js("document.getElementById('lid').remove()");
    refused(&covered, "not visible on the page: covered");
    // A ref of an element outside the tool's root reads as an unknown one.
    let outside = highlight_tool(Some(with(&options("{}"), "root", &fx.el("p")))).unwrap();
    let a = call(&outside, &format!(r#"{{"ref": "{}"}}"#, row(1))).await;
    assert_eq!(
        a.text.replace(&row(1), "X"),
        unknown.text.replace("e999999", "X")
    );
}

#[wasm_bindgen_test]
async fn the_apps_hook_marks_the_row_instead_of_the_sdk() {
    let fx = Fixture::new(INVOICES);
    fx.js("window.__marked = [];");
    let hook = js_fn(
        "el",
        "window.__marked.push(el ? el.cells[0].textContent : null);",
    );
    let d = call(&read_table_tool(Some(rooted(&fx))).unwrap(), "{}")
        .await
        .json();
    let tool = highlight_tool(Some(with(&rooted(&fx), "highlight", &hook))).unwrap();
    let a = call(
        &tool,
        &format!(r#"{{"ref": "{}"}}"#, d["rows"][1]["ref"].as_str().unwrap()),
    )
    .await;
    assert!(!a.is_error, "{}", a.text);
    assert_eq!(overlays(), 0.0);
    call(&tool, r#"{"clear": true}"#).await;
    let marked = fx.js("return JSON.stringify(window.__marked)");
    assert_eq!(marked, JsValue::from_str(r#"["1043",null]"#));
    let bad = highlight_tool(Some(with(&rooted(&fx), "highlight", &JsValue::from(3))));
    assert!(bad.is_err());
}
