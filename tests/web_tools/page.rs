//! read_page (issue 40): an outline of what a person sees inside the root, with refs the other
//! tools take; no hidden text, no field value, no link query, no attribute reaches the model.

use client_tools::tools::{click_tool, fill_form_tool, read_page_tool, submit_form_tool};
use wasm_bindgen_test::wasm_bindgen_test;

use crate::support::*;
use crate::visibility::{seen_rows, techniques, MARK};

const PAGE: &str = r##"<div style="background:#fff;color:#000">
  <h2>Orders<span style="display:none">HIDDEN-HEADING</span></h2>
  <p data-secret="DATA-SECRET">Two orders are <b>due</b>.<span style="color:transparent">HIDDEN-TEXT</span></p>
  <!-- COMMENT -->
  <nav aria-label="Pages"><ul><li><a href="/orders/1042?token=QUERY-SECRET#FRAG-SECRET">Invoice 1042</a></li><li><a href="https://docs.example/help?x=QUERY-SECRET">Help</a></li></ul></nav>
  <form aria-label="Login"><label>User <input name="u" value="ada"></label><label>Password <input type="password" name="p" value="PASSWORD-SECRET"></label><input type="hidden" name="csrf" value="CSRF-SECRET"><label><input type="checkbox" checked> Remember</label><button disabled>Sign in</button></form>
  <table><caption>Due</caption><tr><th>N</th></tr><tr><td>1</td></tr><tr><td>2</td></tr></table>
  <iframe title="Chat" src="about:blank"></iframe>
  <span style="position:relative;display:inline-block"><button>UNDER-BOX</button><span style="position:absolute;left:0;top:0;right:0;bottom:0;background:#fff"></span></span>
  <button id="go" onclick="window.__went = (window.__went || 0) + 1">Go</button>
  <button aria-label="Delete"><span style="display:inline-block;width:16px;height:16px;background:#000"></span></button>
  <input type="button" value="Print">
</div>"##;

fn rooted(fx: &Fixture) -> js_sys::Object {
    with(&options("{}"), "root", &fx.root)
}

#[wasm_bindgen_test]
async fn the_outline_shows_what_a_person_sees_and_nothing_else() {
    let fx = Fixture::new(PAGE);
    fx.js("root.scrollIntoView({block: 'start'}); root.querySelector('[name=u]').focus()");
    let a = call(&read_page_tool(Some(rooted(&fx))).unwrap(), "{}").await;
    assert!(!a.is_error, "{}", a.text);
    let page = a.json()["page"].as_str().unwrap().to_string();
    for secret in [
        "HIDDEN-HEADING",
        "DATA-SECRET",
        "HIDDEN-TEXT",
        "COMMENT",
        "QUERY-SECRET",
        "FRAG-SECRET",
        "PASSWORD-SECRET",
        "CSRF-SECRET",
        "ada",
        "UNDER-BOX",
        "docs.example/help",
    ] {
        assert!(
            !page.contains(secret),
            "{secret} reached the model:\n{page}"
        );
    }
    let lines = refs_as_en(&page);
    assert_eq!(
        lines,
        [
            r#"- heading "Orders" [level=2]"#,
            r#"- text "Two orders are due.""#,
            r#"- navigation "Pages" [ref=eN]"#,
            r#"  - list [ref=eN]"#,
            r#"    - link "Invoice 1042" [ref=eN] -> /orders/1042"#,
            r#"    - link "Help" [ref=eN] -> https://docs.example"#,
            r#"- form "Login" [ref=eN]"#,
            r#"  - text "User""#,
            r#"  - textbox "User" [ref=eN] [filled] [focused]"#,
            r#"  - text "Password""#,
            r#"  - textbox "Password" [ref=eN] [filled]"#,
            r#"  - checkbox "Remember" [ref=eN] [checked]"#,
            r#"  - text "Remember""#,
            r#"  - button "Sign in" [ref=eN] [disabled]"#,
            r#"- table "Due" [ref=eN] (3 rows: read_table reads them)"#,
            r#"- iframe "Chat" (not read)"#,
            r#"- button "Go" [ref=eN]"#,
            // A name from aria-label alone is not on screen, and the model is told so.
            r#"- button "Delete" [ref=eN] [name not shown on screen]"#,
            r#"- button "Print" [ref=eN]"#,
        ],
        "{page}"
    );
}

#[wasm_bindgen_test]
async fn within_and_query_read_less_and_refs_reach_click() {
    let fx = Fixture::new(PAGE);
    fx.js("root.scrollIntoView({block: 'start'})");
    let tool = read_page_tool(Some(rooted(&fx))).unwrap();
    let d = call(&tool, r#"{"query": "go"}"#).await.json();
    let line = d["page"].as_str().unwrap().to_string();
    assert!(line.starts_with(r#"- button "Go" [ref="#), "{line}");
    let go = ref_in(&line);
    let a = call(
        &click_tool(Some(rooted(&fx))).unwrap(),
        &format!(r#"{{"ref": "{go}"}}"#),
    )
    .await;
    assert!(!a.is_error, "{}", a.text);
    assert_eq!(fx.js("return window.__went").as_f64(), Some(1.0));
    // Queries never match what is not shown.
    for q in ["QUERY-SECRET", "PASSWORD", "ada", "csrf", "UNDER"] {
        let d = call(&tool, &format!(r#"{{"query": "{q}"}}"#)).await.json();
        let shown = d["page"].as_str().unwrap();
        assert!(
            shown.is_empty() || (q == "PASSWORD" && !shown.contains("SECRET")),
            "{q}: {shown}"
        );
    }
    let full = call(&tool, "{}").await.json();
    let text = full["page"].as_str().unwrap();
    let nav = text.lines().find(|l| l.contains("navigation")).unwrap();
    let r = ref_in(nav);
    let d = call(&tool, &format!(r#"{{"within": "{r}"}}"#)).await.json();
    assert_eq!(d["page"].as_str().unwrap().lines().count(), 3, "{d}");
    refused(
        &call(&tool, r#"{"within": "e999999"}"#).await,
        "stale or unknown",
    );
    refused(
        &call(&tool, r#"{"query": 3}"#).await,
        "query must be a string",
    );
    refused(&call(&tool, r#"{"query": " "}"#).await, "query is empty");
}

#[wasm_bindgen_test]
async fn a_long_page_is_cut_with_a_hint() {
    let items: String = (0..3000).map(|i| format!("<p>Line {i}</p>")).collect();
    let fx = Fixture::new(&items);
    let d = call(&read_page_tool(Some(rooted(&fx))).unwrap(), "{}")
        .await
        .json();
    assert_eq!(d["truncated"], true);
    assert!(d["hint"].as_str().unwrap().contains("within"));
    assert!(d["page"].as_str().unwrap().len() <= 12_000);
}

#[wasm_bindgen_test]
async fn no_hidden_text_reaches_the_model_through_the_outline() {
    let mut wrong = Vec::new();
    for (hidden, rows) in [(true, techniques()), (false, seen_rows())] {
        for (name, text, _) in rows {
            let fx = Fixture::new(&format!(
                r#"<div style="background:#fff;color:#000"><p>Ada {text}</p><button>Go {text}</button></div>"#
            ));
            fx.js("root.scrollIntoView({block: 'start'})");
            let a = call(&read_page_tool(Some(rooted(&fx))).unwrap(), "{}").await;
            let n = a.text.matches(MARK).count();
            if a.is_error || !a.text.contains("Ada") || (hidden && n > 0) || (!hidden && n != 2) {
                wrong.push(format!("{name} (hidden: {hidden}): {}", a.text));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The refs of the outline's lines that start with `start`, in order.
fn refs_of(outline: &str, start: &str) -> Vec<String> {
    (outline.lines())
        .filter(|l| l.trim_start().starts_with(start))
        .map(ref_in)
        .collect()
}

#[wasm_bindgen_test]
async fn fill_form_and_submit_form_take_the_refs_read_page_gave() {
    let fx = Fixture::new(
        r#"<form id="a"><label>Name <input name="n"></label><label>Name <input name="n2"></label><button>Save</button><button name="draft">Save</button></form>
           <form id="b"><label>City <input name="city"></label></form>"#,
    );
    fx.js("root.saved = []; root.querySelector('#a').addEventListener('submit', e => { e.preventDefault(); root.saved.push(e.submitter.name || 'save'); });");
    let rooted = rooted(&fx);
    let page = call(&read_page_tool(Some(rooted.clone())).unwrap(), "{}")
        .await
        .json();
    let outline = page["page"].as_str().unwrap().to_string();
    let names = refs_of(&outline, "- textbox \"Name\"");
    let (cities, saves) = (
        refs_of(&outline, "- textbox \"City\""),
        refs_of(&outline, "- button \"Save\""),
    );
    assert_eq!(
        (names.len(), cities.len(), saves.len()),
        (2, 1, 2),
        "{outline}"
    );
    // Two fields share the label "Name": by label the name is ambiguous, by ref it is not.
    let fill = fill_form_tool(Some(rooted.clone())).unwrap();
    refused(
        &call(&fill, r#"{"form": "a", "fields": {"Name": "Ada"}}"#).await,
        "names 2 fields",
    );
    let a = call(
        &fill,
        &format!(r#"{{"form": "a", "fields": {{"{}": "Ada"}}}}"#, names[1]),
    )
    .await;
    assert!(!a.is_error, "{}", a.text);
    assert_eq!(
        fx.js("return root.querySelector('[name=n2]').value")
            .as_string()
            .unwrap(),
        "Ada"
    );
    assert_eq!(
        fx.js("return root.querySelector('[name=n]').value")
            .as_string()
            .unwrap(),
        ""
    );
    // A ref of a field of another form names nothing in this one.
    refused(
        &call(
            &fill,
            &format!(r#"{{"form": "a", "fields": {{"{}": "Paris"}}}}"#, cities[0]),
        )
        .await,
        "no field in this form",
    );
    // The second "Save" button, by its ref.
    let submit = submit_form_tool(Some(rooted)).unwrap();
    let a = call(
        &submit,
        &format!(r#"{{"form": "a", "button": "{}"}}"#, saves[1]),
    )
    .await;
    assert!(!a.is_error, "{}", a.text);
    assert_eq!(
        fx.js("return root.saved.join()").as_string().unwrap(),
        "draft"
    );
    // The ref of a field that has left the page names nothing, as an unknown ref does.
    fx.js("root.querySelector('[name=n2]').closest('label').remove()");
    let gone = call(
        &fill,
        &format!(r#"{{"form": "a", "fields": {{"{}": "Bob"}}}}"#, names[1]),
    )
    .await;
    let unknown = call(&fill, r#"{"form": "a", "fields": {"e999999": "Bob"}}"#).await;
    assert_eq!(
        gone.text.replace(&names[1], "X"),
        unknown.text.replace("e999999", "X")
    );
    refused(&gone, "no field in this form");
}
