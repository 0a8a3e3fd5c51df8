//! read_page (issue 40): an outline of what a person sees inside the root, with refs the other
//! tools take; no hidden text, no field value, no link query, no attribute reaches the model.

use client_tools::tools::{click_tool, read_page_tool};
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
    let lines: Vec<String> = page
        .lines()
        .map(|l| {
            // Refs are the SDK's numbers: shown here as eN.
            let mut out = String::new();
            let mut rest = l;
            while let Some(i) = rest.find("[ref=e") {
                out.push_str(&rest[..i]);
                out.push_str("[ref=eN");
                rest = rest[i + 6..].trim_start_matches(|c: char| c.is_ascii_digit());
            }
            out.push_str(rest);
            out
        })
        .collect();
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
    let go = &line[line.find("[ref=").unwrap() + 5..line.find(']').unwrap()];
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
    let r = &nav[nav.find("[ref=").unwrap() + 5..nav.rfind(']').unwrap()];
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
