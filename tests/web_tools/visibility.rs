//! The page tools' one visibility rule (src/tools/visible.rs, issue 40) against a table of
//! hiding techniques, as a hostile page author would use them: one page per technique, where
//! `describe_form` must show none of the hidden text (in a label, a legend, a choice, a button)
//! and `fill_form` must refuse the hidden field. Rows that hide nothing from sight
//! (`aria-hidden` alone, small but readable text) must still be shown and filled: the rule
//! hides what a person cannot see, not more.

use client_tools::tools::{describe_form_tool, fill_form_tool};
use wasm_bindgen_test::wasm_bindgen_test;

use crate::support::*;

/// The text hidden in each row.
pub(crate) const MARK: &str = "LEAKED";

/// An opaque box laid over what precedes it in a `position: relative` wrapper.
const LID: &str =
    r#"<span style="position:absolute;left:0;top:0;right:0;bottom:0;background:#fff"></span>"#;

/// (technique, markup holding `LEAKED` placed inside a label, markup of a field named `h`
/// hidden the same way, or "" where the technique hides text only).
pub(crate) fn techniques() -> Vec<(&'static str, String, String)> {
    let t = |name, text: &str, field: &str| (name, text.replace("{M}", MARK), field.to_string());
    vec![
        t(
            "display:none",
            r#"<span style="display:none">{M}</span>"#,
            r#"<input name="h" style="display:none">"#,
        ),
        t(
            "visibility:hidden",
            r#"<span style="visibility:hidden">{M}</span>"#,
            r#"<input name="h" style="visibility:hidden">"#,
        ),
        t(
            "visibility:hidden on an ancestor",
            r#"<span style="visibility:hidden"><b>{M}</b></span>"#,
            r#"<div style="visibility:hidden"><input name="h"></div>"#,
        ),
        // Out of the viewport no hit test can judge: only the rule's own reading of
        // `visibility` refuses these (on main, without checkVisibility, they leaked).
        t(
            "visibility:hidden below the fold",
            r#"<span style="display:inline-block;margin-top:3000px;visibility:hidden">{M}</span>"#,
            r#"<div style="margin-top:3000px;visibility:hidden"><input name="h"></div>"#,
        ),
        t(
            "visibility:collapse below the fold",
            r#"<span style="display:inline-block;margin-top:3000px;visibility:collapse"><b>{M}</b></span>"#,
            r#"<div style="margin-top:3000px;visibility:collapse"><input name="h"></div>"#,
        ),
        t(
            "opacity:0",
            r#"<span style="opacity:0">{M}</span>"#,
            r#"<input name="h" style="opacity:0">"#,
        ),
        t(
            "opacity:0 on an ancestor",
            r#"<span style="opacity:0"><b>{M}</b></span>"#,
            r#"<div style="opacity:0"><input name="h"></div>"#,
        ),
        t(
            "opacity:0.01",
            r#"<span style="opacity:0.01">{M}</span>"#,
            r#"<input name="h" style="opacity:0.01">"#,
        ),
        t(
            "hidden attribute",
            r#"<span hidden>{M}</span>"#,
            r#"<input name="h" hidden>"#,
        ),
        t(
            "inert",
            r#"<span inert>{M}</span>"#,
            r#"<div inert><input name="h"></div>"#,
        ),
        t(
            "off-screen left",
            r#"<span style="position:absolute;left:-9999px">{M}</span>"#,
            r#"<input name="h" style="position:absolute;left:-9999px">"#,
        ),
        t(
            "off-screen above",
            r#"<span style="position:absolute;top:-9999px">{M}</span>"#,
            r#"<input name="h" style="position:absolute;top:-9999px">"#,
        ),
        t(
            "fixed above the viewport",
            r#"<span style="position:fixed;top:-500px;left:0">{M}</span>"#,
            r#"<input name="h" style="position:fixed;top:-500px;left:0">"#,
        ),
        t(
            "transform: translateX(-9999px)",
            r#"<span style="display:inline-block;transform:translateX(-9999px)">{M}</span>"#,
            r#"<input name="h" style="transform:translateX(-9999px)">"#,
        ),
        t(
            "zero size, overflow hidden",
            r#"<span style="display:inline-block;width:0;height:0;overflow:hidden">{M}</span>"#,
            r#"<input name="h" style="width:0;height:0;padding:0;border:0">"#,
        ),
        t(
            "1 x 1 px box",
            r#"<span style="display:inline-block;width:1px;height:1px;overflow:hidden">{M}</span>"#,
            r#"<input name="h" style="width:1px;height:1px;padding:0;border:0">"#,
        ),
        t(
            "visually hidden (1 px, clip: rect(0 0 0 0))",
            r#"<span style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap">{M}</span>"#,
            r#"<input name="h" style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)">"#,
        ),
        t(
            "2 x 2 px visually hidden box",
            r#"<span style="position:absolute;width:2px;height:2px;overflow:hidden;white-space:nowrap">{M}</span>"#,
            r#"<input name="h" style="width:2px;height:2px;padding:0;border:0">"#,
        ),
        t(
            "2 px overflow:hidden box",
            r#"<span style="display:inline-block;height:2px;overflow:hidden">{M}</span>"#,
            r#"<div style="height:2px;overflow:hidden"><input name="h"></div>"#,
        ),
        t(
            "max-height:0, overflow hidden",
            r#"<span style="display:block;max-height:0;overflow:hidden">{M}</span>"#,
            r#"<div style="max-height:0;overflow:hidden"><input name="h"></div>"#,
        ),
        t(
            "clip: rect(0 0 0 0) alone",
            r#"<span style="position:absolute;clip:rect(0 0 0 0)">{M}</span>"#,
            r#"<input name="h" style="position:absolute;clip:rect(0 0 0 0)">"#,
        ),
        t(
            "clip-path: inset(50%)",
            r#"<span style="display:inline-block;clip-path:inset(50%)">{M}</span>"#,
            r#"<input name="h" style="clip-path:inset(50%)">"#,
        ),
        t(
            "text-indent:-9999px",
            r#"<span style="display:inline-block;text-indent:-9999px">{M}</span>"#,
            r#"<div style="text-indent:-9999px"><input name="h"></div>"#,
        ),
        t(
            "text-indent:-9999px in a sized box",
            r#"<span style="display:inline-block;width:120px;text-indent:-9999px">{M}</span>"#,
            "",
        ),
        t(
            "past the right edge under overflow-x:hidden",
            r#"<span style="display:inline-block;width:40px;overflow-x:hidden;white-space:nowrap;vertical-align:top">x<span style="margin-left:300px">{M}</span></span>"#,
            r#"<div style="width:40px;overflow-x:hidden;white-space:nowrap">x<input name="h" style="margin-left:300px"></div>"#,
        ),
        t(
            "text directly inside a closed details",
            r#"<details>{M}<summary>More</summary></details>"#,
            r#"<details><summary>More</summary><input name="h"></details>"#,
        ),
        t(
            "an element inside a closed details",
            r#"<details><summary>More</summary><span>{M}</span></details>"#,
            "",
        ),
        t(
            "content-visibility:hidden (its own text)",
            r#"<span style="display:inline-block;content-visibility:hidden">{M}</span>"#,
            r#"<div style="content-visibility:hidden"><input name="h"></div>"#,
        ),
        t(
            "content-visibility:hidden on a sized box (its own text)",
            r#"<span style="display:inline-block;width:120px;height:20px;content-visibility:hidden">{M}</span>"#,
            r#"<div style="width:200px;height:30px;content-visibility:hidden"><input name="h"></div>"#,
        ),
        t(
            "content-visibility:hidden (a child's text)",
            r#"<span style="display:inline-block;content-visibility:hidden"><b>{M}</b></span>"#,
            "",
        ),
        t(
            "hidden=until-found (its own text)",
            r#"<div hidden="until-found">{M}</div>"#,
            r#"<div hidden="until-found"><input name="h"></div>"#,
        ),
        t(
            "hidden=until-found on a sized box (its own text)",
            r#"<div hidden="until-found" style="width:120px;height:20px">{M}</div>"#,
            r#"<div hidden="until-found" style="width:200px;height:30px"><input name="h"></div>"#,
        ),
        t(
            "color: transparent",
            r#"<span style="color:transparent">{M}</span>"#,
            "",
        ),
        t(
            "color: near-transparent",
            r#"<span style="color:rgba(0,0,0,0.03)">{M}</span>"#,
            "",
        ),
        t(
            "color of the background",
            r#"<span style="color:#fafafa;background:#fafafa">{M}</span>"#,
            "",
        ),
        t(
            "color of an ancestor's background",
            r#"<span style="background:#123456"><b style="color:#123456">{M}</b></span>"#,
            "",
        ),
        t(
            "font-size:1px",
            r#"<span style="font-size:1px">{M}</span>"#,
            "",
        ),
        t("font-size:0", r#"<span style="font-size:0">{M}</span>"#, ""),
        t(
            "transform: scale(0.02)",
            r#"<span style="display:inline-block;transform:scale(0.02)">{M}</span>"#,
            r#"<input name="h" style="transform:scale(0.02)">"#,
        ),
        (
            "under an opaque box",
            format!(
                r#"<span style="position:relative;display:inline-block"><span>{MARK}</span>{LID}</span>"#
            ),
            format!(
                r#"<span style="position:relative;display:inline-block"><input name="h">{LID}</span>"#
            ),
        ),
        (
            "under an opaque box inside its own element",
            format!(r#"<span style="position:relative;display:inline-block">{MARK}{LID}</span>"#),
            String::new(),
        ),
    ]
}

/// Rows that hide nothing from sight: their text is shown and their field filled.
pub(crate) fn seen_rows() -> Vec<(&'static str, String, String)> {
    let t = |name, text: &str, field: &str| (name, text.replace("{M}", MARK), field.to_string());
    vec![
        t("plain", r#"<span>{M}</span>"#, r#"<input name="h">"#),
        t(
            "aria-hidden only (hidden from assistive technology, not from sight)",
            r#"<span aria-hidden="true">{M}</span>"#,
            r#"<input name="h" aria-hidden="true">"#,
        ),
        t(
            "small but readable (10 px)",
            r#"<span style="font-size:10px">{M}</span>"#,
            r#"<input name="h" style="font-size:10px">"#,
        ),
        t(
            "an open details",
            r#"<details open><summary>More</summary>{M}</details>"#,
            r#"<details open><summary>More</summary><input name="h"></details>"#,
        ),
        t(
            "below the fold (a person scrolls to it)",
            r#"<span style="display:inline-block;margin-top:3000px">{M}</span>"#,
            r#"<div style="margin-top:3000px"><input name="h"></div>"#,
        ),
        t(
            "half transparent",
            r#"<span style="opacity:0.5">{M}</span>"#,
            r#"<input name="h" style="opacity:0.5">"#,
        ),
        t(
            "a scroll box's hidden part (a person scrolls to it)",
            r#"<span style="display:inline-block;height:20px;overflow:auto;vertical-align:top"><span style="display:block;height:60px"></span>{M}</span>"#,
            r#"<div style="height:30px;overflow:auto"><div style="height:60px"></div><input name="h"></div>"#,
        ),
    ]
}

fn page(text: &str, field: &str) -> String {
    format!(
        r#"<form id="f" style="background:#fff;color:#000;padding:8px"><label for="a">Name {text}</label> <input id="a" name="a"><br>{field}
  <fieldset><legend>Plan {text}</legend><label><input type="radio" name="p" value="1"> One</label><label><input type="radio" name="p" value="2"> Two {text}</label></fieldset>
  <button type="submit" name="go">Send {text}</button></form>"#
    )
}

/// What went wrong on one row, if anything. The text sits in a label, a legend, a choice's label
/// and a button.
async fn judge(name: &str, text: &str, field: &str, hidden: bool) -> Vec<String> {
    let mut wrong = Vec::new();
    let fx = Fixture::new(&page(text, field));
    // The hit test that finds covered text judges what is in the viewport. Each row starts
    // from the top, scrolled at once: a row below the fold scrolled the window, and WebKitGTK
    // scrolls smoothly (its animation could still be running into the next row).
    fx.js("window.scrollTo({top: 0, left: 0, behavior: 'instant'}); root.scrollIntoView({block: 'start', behavior: 'instant'})");
    let rooted = || with(&options("{}"), "root", &fx.root);
    let d = call(&describe_form_tool(Some(rooted())).unwrap(), "{}").await;
    if d.is_error {
        wrong.push(format!("{name}: describe_form failed: {}", d.text));
    } else if hidden && d.text.contains(MARK) || !hidden && d.text.matches(MARK).count() != 4 {
        wrong.push(format!(
            "{name}: describe_form {} the text: {}",
            if hidden { "showed" } else { "left out" },
            d.text
        ));
    }
    if !field.is_empty() {
        let fill = fill_form_tool(Some(rooted())).unwrap();
        let a = call(&fill, r#"{"fields": {"h": "x"}}"#).await;
        let value = fx.js("return root.querySelector('[name=h]').value");
        if hidden && (!a.is_error || !a.text.contains("not visible") || value == "x") {
            wrong.push(format!(
                "{name}: fill_form filled the hidden field: {}",
                a.text
            ));
        }
        if !hidden && (a.is_error || value != "x") {
            wrong.push(format!(
                "{name}: fill_form refused a visible field: {}",
                a.text
            ));
        }
        if hidden {
            let d = call(&describe_form_tool(Some(rooted())).unwrap(), "{}").await;
            if !d.text.contains(r#""visible":false"#) {
                wrong.push(format!(
                    "{name}: describe_form did not mark the field: {}",
                    d.text
                ));
            }
        }
    }
    wrong
}

/// Every row of both tables, as a list of what went wrong.
async fn judge_all() -> Vec<String> {
    let rows = techniques();
    assert!(
        rows.len() >= 35,
        "the table holds {} techniques",
        rows.len()
    );
    let mut wrong = Vec::new();
    for (name, text, field) in &rows {
        wrong.extend(judge(name, text, field, true).await);
    }
    for (name, text, field) in &seen_rows() {
        wrong.extend(judge(name, text, field, false).await);
    }
    wrong
}

fn assert_none_wrong(wrong: &[String], how: &str) {
    assert!(
        wrong.is_empty(),
        "{how}: {} of {} rows went wrong:\n{}",
        wrong.len(),
        techniques().len() + seen_rows().len(),
        wrong.join("\n")
    );
}

/// An app shell (a fixed-height scroll box holding the page's content) makes the document no
/// taller than the viewport: what its scroll box holds below the document's end is reached by
/// scrolling the box, and counts. On main, such a field was "off the page" and its label empty.
#[wasm_bindgen_test]
async fn a_scroll_box_reaches_past_the_end_of_the_document() {
    let fx = Fixture::new(
        r#"<form id="f" style="background:#fff;color:#000"><div id="box" style="height:100px;overflow:auto"><div style="height:6000px"></div><label>Deep <input name="deep"></label></div></form>"#,
    );
    fx.js("root.scrollIntoView({block: 'start'})");
    let rooted = with(&options("{}"), "root", &fx.root);
    let d = call(&describe_form_tool(Some(rooted.clone())).unwrap(), "{}").await;
    assert!(!d.is_error, "{}", d.text);
    let field = &d.json()["forms"][0]["fields"][0];
    assert_eq!(
        (field["label"].as_str(), field.get("visible")),
        (Some("Deep"), None),
        "{}",
        d.text
    );
    let a = call(
        &fill_form_tool(Some(rooted.clone())).unwrap(),
        r#"{"fields": {"Deep": "x"}}"#,
    )
    .await;
    assert!(!a.is_error, "{}", a.text);
    // What an `overflow: hidden` box holds past its end is still out of reach.
    fx.js("root.querySelector('#box').style.overflow = 'hidden'; root.querySelector('#box').scrollTop = 0");
    let d = call(&describe_form_tool(Some(rooted)).unwrap(), "{}").await;
    assert!(d.text.contains(r#""visible":false"#), "{}", d.text);
    assert!(!d.text.contains("Deep"), "{}", d.text);
}

#[wasm_bindgen_test]
async fn no_hidden_text_reaches_the_model_and_no_hidden_field_is_filled() {
    let has = page_js("return typeof Element.prototype.checkVisibility === 'function'");
    let wrong = judge_all().await;
    let how = if has.as_bool() == Some(true) {
        "with Element.prototype.checkVisibility"
    } else {
        "in a browser without Element.prototype.checkVisibility"
    };
    assert_none_wrong(&wrong, how);
}

/// The same tables where the browser has no `checkVisibility` (Safari before 17.4, Firefox
/// before 106): the rule reads the computed styles itself and gives the same answers.
#[wasm_bindgen_test]
async fn the_same_answers_without_check_visibility() {
    page_js(
        "window.__checkVisibility = Object.getOwnPropertyDescriptor(Element.prototype, 'checkVisibility'); \
         delete Element.prototype.checkVisibility; \
         if ('checkVisibility' in Element.prototype) throw new Error('checkVisibility stayed');",
    );
    let wrong = judge_all().await;
    page_js(
        "if (window.__checkVisibility) Object.defineProperty(Element.prototype, 'checkVisibility', window.__checkVisibility); \
         delete window.__checkVisibility;",
    );
    assert_none_wrong(&wrong, "without Element.prototype.checkVisibility");
}

/// Runs `body` as a function in the page, outside any fixture.
fn page_js(body: &str) -> wasm_bindgen::JsValue {
    js_sys::Function::new_no_args(body)
        .call0(&wasm_bindgen::JsValue::NULL)
        .unwrap()
}

/// A `position: fixed` box above the viewport stays out of sight however far the page is
/// scrolled: scrolling never moves it, so only the viewport is its reach, not the page (with the
/// window scrolled 1,500 px down, the page reached 1,500 px above the viewport and the box at
/// -500 px counted as seen: its text reached the model and its field was filled).
#[wasm_bindgen_test]
async fn a_fixed_box_above_the_viewport_is_unseen_on_a_scrolled_page() {
    let fixed = r#"<span style="position:fixed;top:-500px;left:0">{M}</span>"#.replace("{M}", MARK);
    let field = r#"<input name="h" style="position:fixed;top:-500px;left:0">"#;
    let fx = Fixture::new(&format!(
        r#"{}<div style="height:4000px"></div>"#,
        page(&fixed, field)
    ));
    fx.js("window.scrollTo({top: 1500, left: 0, behavior: 'instant'})");
    let scrolled = fx.js("return window.scrollY").as_f64().unwrap_or(0.0);
    let rooted = || with(&options("{}"), "root", &fx.root);
    let d = call(&describe_form_tool(Some(rooted())).unwrap(), "{}").await;
    let fill = call(
        &fill_form_tool(Some(rooted())).unwrap(),
        r#"{"fields": {"h": "x"}}"#,
    )
    .await;
    let value = fx.js("return root.querySelector('[name=h]').value");
    page_js("window.scrollTo({top: 0, left: 0, behavior: 'instant'})");
    assert!(scrolled >= 1000.0, "the window did not scroll: {scrolled}");
    assert!(
        !d.text.contains(MARK),
        "describe_form showed the text: {}",
        d.text
    );
    assert!(
        d.text.contains(r#""visible":false"#),
        "describe_form did not mark the field: {}",
        d.text
    );
    assert!(
        fill.is_error && fill.text.contains("not visible") && value != "x",
        "fill_form filled the field: {}",
        fill.text
    );
}
