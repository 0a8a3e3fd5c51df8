//! The reading tools' `root` (issue 40): an element, a CSS selector (the app's, found at each
//! call) or several, since modals render in portals outside the app's main element. Each root
//! is read in document order; refs are handed out and taken only inside them; nothing outside
//! them changes an answer.

use client_tools::tools::{
    click_tool, highlight_tool, read_page, read_page_tool, read_table_tool, PageOptions, PageRoot,
};
use client_tools::ErrorKind;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::support::*;

/// A modal in a portal placed before the app's main element, and an aside outside both.
const APP: &str = r#"<div id="rt-portal"><div role="dialog" aria-label="Confirm" id="rt-dialog" style="background:#fff;color:#000"><p>Delete invoice 1042?</p><table><caption>Lines</caption><tr><th>Item</th></tr><tr><td>Paper</td></tr></table><button id="rt-yes" onclick="window.__pressed.push('yes')">Delete</button></div></div>
<div id="rt-main" style="background:#fff;color:#000"><h2>Invoices</h2><button id="rt-open" onclick="window.__pressed.push('open')">Open</button><table><caption>Due</caption><tr><th>N</th></tr><tr><td>1</td></tr></table></div>
<div id="rt-aside" data-n="1" style="background:#fff;color:#000"><p>SIDE-TEXT</p><button id="rt-side" onclick="window.__pressed.push('side')">Side</button></div>"#;

/// Options whose `root` is the JS value `root`.
fn rooted_at(root: &JsValue) -> js_sys::Object {
    with(&options("{}"), "root", root)
}

fn list(items: &[&JsValue]) -> JsValue {
    items.iter().copied().collect::<js_sys::Array>().into()
}

async fn page_of(tool: &JsValue, args: &str) -> String {
    let a = call(tool, args).await;
    assert!(!a.is_error, "{}", a.text);
    a.json()["page"].as_str().unwrap().to_string()
}

#[wasm_bindgen_test]
async fn a_selector_root_is_found_at_each_call() {
    let fx = Fixture::new(APP);
    fx.js("window.__pressed = []; root.scrollIntoView({block: 'start'})");
    let tool = read_page_tool(Some(rooted_at(&"#rt-main".into()))).unwrap();
    assert_eq!(
        refs_as_en(&page_of(&tool, "{}").await),
        [
            r#"- heading "Invoices" [level=2]"#,
            r#"- button "Open" [ref=eN]"#,
            r#"- table "Due" [ref=eN] (2 rows: read_table reads them)"#,
        ]
    );
    // The app renders its main element anew: the selector finds the new one.
    fx.js("const old = document.getElementById('rt-main'); const now = old.cloneNode(true); now.querySelector('h2').textContent = 'Payments'; old.replaceWith(now)");
    assert!(page_of(&tool, "{}")
        .await
        .starts_with(r#"- heading "Payments""#));
    // A selector matching nothing now is answered as such, naming the app's selector only.
    let none = read_page_tool(Some(rooted_at(&"#rt-none".into()))).unwrap();
    let a = call(&none, "{}").await;
    refused(&a, r##"no element matching "#rt-none" is on the page now"##);
    let none = click_tool(Some(rooted_at(&"#rt-none".into()))).unwrap();
    refused(
        &call(&none, &by_ref("e1")).await,
        r##"no element matching "#rt-none" is on the page now"##,
    );
    // The app's mistakes throw when the tool is made.
    let made = |root: JsValue| {
        read_page_tool(Some(rooted_at(&root))).err().map(|e| {
            js_sys::Reflect::get(&e, &"message".into())
                .unwrap()
                .as_string()
                .unwrap()
        })
    };
    let bad = made("[".into()).expect("an invalid selector throws");
    assert!(
        bad.contains(r#"options.root: "[" is not a valid CSS selector"#),
        "{bad}"
    );
    let bad = made(list(&[])).expect("an empty list throws");
    assert!(bad.contains("options.root is an empty list"), "{bad}");
    let bad = made(list(&[&"#rt-main".into(), &5.into()])).expect("a number throws");
    assert!(
        bad.contains("options.root[1] must be an Element or a CSS selector"),
        "{bad}"
    );
    let bad = made(list(&[&"#rt-main".into(), &"a[".into()])).expect("a bad selector throws");
    assert!(
        bad.contains(r#"options.root[1]: "a[" is not a valid CSS selector"#),
        "{bad}"
    );
}

#[wasm_bindgen_test]
async fn several_roots_are_read_in_document_order_and_refs_stay_inside_them() {
    let fx = Fixture::new(APP);
    fx.js("window.__pressed = []; root.scrollIntoView({block: 'start'})");
    // The main element first in the option, the portal's dialog first in the document.
    let roots = list(&[&fx.el("#rt-main").into(), &"[role=dialog]".into()]);
    let read = read_page_tool(Some(rooted_at(&roots))).unwrap();
    let page = page_of(&read, "{}").await;
    assert_eq!(
        refs_as_en(&page),
        [
            r#"- text "Delete invoice 1042?""#,
            r#"- table "Lines" [ref=eN] (2 rows: read_table reads them)"#,
            r#"- button "Delete" [ref=eN]"#,
            r#"- heading "Invoices" [level=2]"#,
            r#"- button "Open" [ref=eN]"#,
            r#"- table "Due" [ref=eN] (2 rows: read_table reads them)"#,
        ],
        "{page}"
    );
    // Nothing outside the roots changes the answer.
    fx.js("const a = document.getElementById('rt-aside'); a.dataset.n = '2'; a.querySelector('p').textContent = 'OTHER TEXT, LONGER THAN BEFORE'; a.append(document.createElement('p'))");
    assert_eq!(page_of(&read, "{}").await, page);
    // `query` and `within` work across the roots.
    assert_eq!(
        refs_as_en(&page_of(&read, r#"{"query": "delete"}"#).await),
        [
            r#"- text "Delete invoice 1042?""#,
            r#"- button "Delete" [ref=eN]"#,
        ]
    );
    // A ref from either root is taken; one from outside them (handed out by a tool that sees
    // the whole fixture) reads as an unknown ref.
    let click = click_tool(Some(rooted_at(&roots))).unwrap();
    let yes = ref_on(&page, "button \"Delete\"");
    let a = call(&click, &by_ref(&yes)).await;
    assert!(!a.is_error, "{}", a.text);
    let everything = read_page_tool(Some(with(&options("{}"), "root", &fx.root))).unwrap();
    let side = ref_on(&page_of(&everything, "{}").await, "button \"Side\"");
    let outside = call(&click, &by_ref(&side)).await;
    let unknown = call(&click, &by_ref("e999999")).await;
    assert_eq!(
        outside.text.replace(&side, "X"),
        unknown.text.replace("e999999", "X")
    );
    let highlight = highlight_tool(Some(rooted_at(&roots))).unwrap();
    refused(&call(&highlight, &by_ref(&side)).await, "stale or unknown");
    assert_eq!(
        fx.js("return window.__pressed.join()").as_string().unwrap(),
        "yes"
    );
    // read_table counts tables across the roots in document order.
    let tables = read_table_tool(Some(rooted_at(&roots))).unwrap();
    refused(
        &call(&tables, "{}").await,
        r#"table 1 ("Lines"), table 2 ("Due")"#,
    );
    let d = call(&tables, r#"{"table": "table 2"}"#).await.json();
    assert_eq!(d["caption"], "Due");
    // The modal closes: the main element is read alone, and the modal's refs are stale.
    fx.js("document.getElementById('rt-dialog').remove()");
    assert_eq!(
        refs_as_en(&page_of(&read, "{}").await),
        [
            r#"- heading "Invoices" [level=2]"#,
            r#"- button "Open" [ref=eN]"#,
            r#"- table "Due" [ref=eN] (2 rows: read_table reads them)"#,
        ]
    );
    refused(&call(&click, &by_ref(&yes)).await, "stale or unknown");
    // Every root gone: the call says which.
    let gone = read_page_tool(Some(rooted_at(&list(&[&"#rt-x".into(), &"#rt-y".into()])))).unwrap();
    refused(
        &call(&gone, "{}").await,
        r##"none of the tool's roots is on the page now: no element matches "#rt-x", "#rt-y""##,
    );
}

#[wasm_bindgen_test]
async fn a_root_inside_another_counts_once() {
    let fx = Fixture::new(APP);
    fx.js("root.scrollIntoView({block: 'start'})");
    let roots = list(&[
        &"#rt-main h2".into(),
        &fx.root.clone().into(),
        &"#rt-main".into(),
    ]);
    let nested = page_of(&read_page_tool(Some(rooted_at(&roots))).unwrap(), "{}").await;
    let whole = page_of(
        &read_page_tool(Some(with(&options("{}"), "root", &fx.root))).unwrap(),
        "{}",
    )
    .await;
    assert_eq!(nested, whole);
}

#[wasm_bindgen_test]
async fn the_rust_api_takes_selectors_and_several_roots() {
    use client_tools::testing::TestAgent;
    use client_tools::Client;
    let fx = Fixture::new(APP);
    fx.js("root.scrollIntoView({block: 'start'})");
    let Err(bad) = read_page(PageOptions::default().root("[")) else {
        panic!("an invalid selector is refused when the tool is made");
    };
    assert_eq!(bad.kind(), ErrorKind::InvalidOption);
    assert!(
        bad.to_string()
            .contains(r#"options.root: "[" is not a valid CSS selector"#),
        "{bad}"
    );
    let main: web_sys::Element = fx.el("#rt-main");
    let tool = read_page(
        PageOptions::default().roots([PageRoot::Element(main), PageRoot::from("#rt-dialog")]),
    )
    .expect("valid options");
    let agent = TestAgent::new();
    let client = Client::register(agent.options().name("roots").tool(tool))
        .await
        .expect("registered");
    let out = agent
        .call("read_page", serde_json::json!({}))
        .await
        .expect("answered");
    assert!(!out.is_error, "{}", out.text);
    let page: serde_json::Value = serde_json::from_str(&out.text).unwrap();
    let page = page["page"].as_str().unwrap();
    assert_eq!(
        refs_as_en(page)[0],
        r#"- text "Delete invoice 1042?""#,
        "{page}"
    );
    assert!(page.contains(r#"heading "Invoices""#), "{page}");
    assert!(!page.contains("SIDE-TEXT"), "{page}");
    client.leave().await.expect("left");
}
