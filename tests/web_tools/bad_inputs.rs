//! The hostile-input table: URLs, selectors, values and forms an injected agent might send.
//! Each row is refused with a reason that names the problem, or is made harmless (and the
//! row says how).

use client_tools::tools::{describe_form_tool, fill_form_tool, navigate_tool, submit_form_tool};
use wasm_bindgen_test::wasm_bindgen_test;

use crate::support::*;

/// What must happen to one hostile input.
enum Expect {
    /// An error result whose text contains this.
    Refused(&'static str),
    /// Accepted, but only as a same-origin path containing this (the router saw it).
    SamePath(&'static str),
}
use Expect::*;

fn url_table() -> Vec<(String, Expect)> {
    let host = web_sys::window().unwrap().location().host().unwrap();
    let rows: Vec<(&str, Expect)> = vec![
        ("javascript:alert(1)", Refused("javascript: scheme")),
        ("JaVaScRiPt:alert(1)", Refused("javascript: scheme")),
        (
            "javascript://example.com/%0aalert(1)",
            Refused("javascript: scheme"),
        ),
        ("  javascript:alert(1)", Refused("spaces")),
        ("java\tscript:alert(1)", Refused("control characters")),
        ("java\nscript:alert(1)", Refused("control characters")),
        ("\u{0}javascript:alert(1)", Refused("control characters")),
        ("\u{1b}javascript:alert(1)", Refused("control characters")),
        ("javascript\u{85}:alert(1)", Refused("control characters")),
        // Entities mean nothing to the URL parser: these are odd relative paths of this app.
        (
            "javascript&colon;alert(1)",
            SamePath("javascript&colon;alert(1)"),
        ),
        ("&#106;avascript:alert(1)", SamePath("&")),
        (
            "data:text/html,<script>alert(1)</script>",
            Refused("data: scheme"),
        ),
        (
            "DATA:text/html;base64,PHNjcmlwdD4=",
            Refused("data: scheme"),
        ),
        ("blob:https://app.example/0b1c", Refused("blob: scheme")),
        ("file:///etc/passwd", Refused("file: scheme")),
        ("vbscript:msgbox(1)", Refused("vbscript: scheme")),
        ("about:blank", Refused("about: scheme")),
        ("ftp://files.example/x", Refused("ftp: scheme")),
        ("mailto:a@b.example", Refused("mailto: scheme")),
        (
            "//evil.example/login",
            Refused("another site (http://evil.example)"),
        ),
        ("///evil.example", Refused("another site")),
        ("/\\evil.example", Refused("backslash")),
        ("\\\\evil.example", Refused("backslash")),
        ("https:evil.example", Refused("another site")),
        ("https://evil.example", Refused("another site")),
        (
            "https://app.example@evil.example/",
            Refused("user name or password"),
        ),
        ("http://127.0.0.1.nip.io/", Refused("another site")),
        ("http://[::1]/", Refused("another site")),
        ("/%2F%2Fevil.example", SamePath("/%2F%2Fevil.example")),
        ("/..//evil.example", Refused("starts with //")),
        ("/./%2e%2e//evil.example/", Refused("starts with //")),
        ("", Refused("is empty")),
    ];
    let mut rows: Vec<(String, Expect)> =
        rows.into_iter().map(|(u, e)| (u.to_string(), e)).collect();
    rows.push((
        format!("http://user:pw@{host}/x"),
        Refused("user name or password"),
    ));
    rows.push((format!("https://{host}/x"), Refused("another site")));
    rows.push((format!("/{}", "a".repeat(5000)), Refused("at most 2048")));
    rows
}

#[wasm_bindgen_test]
async fn dangerous_urls_are_refused_or_stay_inside_the_app() {
    let before = web_sys::window().unwrap().location().href().unwrap();
    let fx = Fixture::new("");
    fx.js("window.__badRoutes = [];");
    let router = js_fn("p", "window.__badRoutes.push(p)");
    let tool = navigate_tool(Some(with(&options("{}"), "router", &router))).unwrap();
    for (url, expect) in url_table() {
        let args = serde_json::json!({ "url": url }).to_string();
        let a = call(&tool, &args).await;
        let routed = fx
            .js("return window.__badRoutes.splice(0).join('\\n')")
            .as_string()
            .unwrap();
        assert_eq!(a.deferred, 0, "{url:?} scheduled a page load");
        match expect {
            Refused(why) => {
                refused(&a, why);
                assert!(
                    routed.is_empty(),
                    "{url:?} reached the router as {routed:?}"
                );
            }
            SamePath(part) => {
                assert!(!a.is_error, "{url:?}: {}", a.text);
                assert!(
                    routed.starts_with('/') && routed.contains(part),
                    "{url:?} routed as {routed:?}"
                );
            }
        }
    }
    fx.js("delete window.__badRoutes;");
    assert_eq!(
        web_sys::window().unwrap().location().href().unwrap(),
        before
    );
}

const FORMS: &str = r#"<form id="outside"><input name="o"></form><input name="tied" form="f">
<section id="scope"><form id="f" name="main"><label>Title <input name="title" maxlength="10"></label><label>When <input name="when" type="date"></label>
<label>Body <textarea name="body"></textarea></label><label>Site <input type="url" name="site"></label><select name="one"><option>A</option><option>B</option></select>
<label><input type="checkbox" name="ok"> OK</label><div>filler</div><button>Save</button></form></section>"#;

#[wasm_bindgen_test]
async fn hostile_locators_are_refs_never_selectors_and_never_reach_outside_the_root() {
    let fx = Fixture::new(FORMS);
    let scope = fx.el("#scope");
    let tool = describe_form_tool(Some(with(&options("{}"), "root", &scope))).unwrap();
    let huge = "form".repeat(2000);
    let rows: Vec<(&str, Expect)> = vec![
        // A locator is a ref compared as text: selectors name no form, inside the root or not.
        ("*", Refused("no form in scope is called")),
        ("[[", Refused("no form in scope is called")),
        ("form:has(", Refused("no form in scope is called")),
        (&huge, Refused("at most 200")),
        ("#outside", Refused("no form in scope is called")),
        ("outside", Refused("no form in scope is called")),
        ("body > form", Refused("no form in scope is called")),
        ("div", Refused("no form in scope is called")),
        (":root form", Refused("no form in scope is called")),
        ("#scope form", Refused("no form in scope is called")),
        ("#f", Refused("pass one of: \"f\"")),
        ("\u{0}", Refused("control characters")),
        ("   ", Refused("is empty")),
    ];
    for (loc, expect) in rows {
        let a = call(&tool, &serde_json::json!({ "form": loc }).to_string()).await;
        match expect {
            Refused(why) => refused(&a, why),
            SamePath(_) => unreachable!(),
        }
    }
    // The refs describe_form hands out: id, name, "form N".
    for ok in ["f", "main", "form 1"] {
        let a = call(&tool, &serde_json::json!({ "form": ok }).to_string()).await;
        assert!(!a.is_error, "{ok}: {}", a.text);
        assert_eq!(a.json()["forms"][0]["ref"], "f", "{ok}");
    }
    refused(
        &call(&tool, r#"{"form": 7}"#).await,
        "form must be a string",
    );
    refused(&call(&tool, "[1]").await, "must be a JSON object");
}

#[wasm_bindgen_test]
async fn hostile_values_are_refused_or_cut_with_a_reason() {
    let fx = Fixture::new(FORMS);
    let tool = fill_form_tool(Some(with(&options("{}"), "root", &fx.el("#scope")))).unwrap();
    let long = "x".repeat(60_000);
    let huge_name = "n".repeat(500);
    let rows: Vec<(serde_json::Value, &str)> = vec![
        (serde_json::json!({ "Title": "one\ntwo" }), "line break"),
        (
            serde_json::json!({ "Title": "bell\u{7}" }),
            "control characters",
        ),
        (serde_json::json!({ "Body": long }), "at most 50000"),
        (serde_json::json!({ "Title": true }), "takes text"),
        (
            serde_json::json!({ "Title": { "toString": "x" } }),
            "takes text",
        ),
        (serde_json::json!({ "When": "tomorrow" }), "YYYY-MM-DD"),
        (serde_json::json!({ "When": "2024-13-01" }), "YYYY-MM-DD"),
        (serde_json::json!({ "ok": "yes" }), "true or false"),
        (serde_json::json!({ "one": ["A", "B"] }), "one choice"),
        (serde_json::json!({ "*": "x" }), "no field"),
        (serde_json::json!({ "o": "x" }), "no field"),
        (serde_json::json!({ "tied": "x" }), "no field"),
        (
            serde_json::json!({ "Site": "javascript:alert(1)" }),
            "javascript: URL",
        ),
        (
            serde_json::json!({ "Site": " JavaScript:alert(1)" }),
            "javascript: URL",
        ),
        (
            serde_json::json!({ "Site": "java\tscript:alert(1)" }),
            "javascript: URL",
        ),
        (
            serde_json::json!({ "Site": "data:text/html,<script>alert(1)</script>" }),
            "data: URL",
        ),
        (serde_json::json!({ huge_name: "x" }), "at most 200"),
    ];
    for (fields, why) in rows {
        let a = call(&tool, &serde_json::json!({ "fields": fields }).to_string()).await;
        refused(&a, why);
    }
    refused(&call(&tool, r#"{"fields": []}"#).await, "must be an object");
    refused(&call(&tool, r#"{"fields": {}}"#).await, "is empty");
    refused(&call(&tool, "{}").await, "must be an object");
    let many: serde_json::Map<String, serde_json::Value> =
        (0..101).map(|i| (format!("f{i}"), "x".into())).collect();
    refused(
        &call(&tool, &serde_json::json!({ "fields": many }).to_string()).await,
        "at most 100",
    );
    // Over maxlength: cut, as typing would be, and said so.
    let site = call(&tool, r#"{"fields": {"Site": "https://ok.example/page"}}"#).await;
    assert!(!site.is_error, "an http(s) URL is fine: {}", site.text);
    let a = call(&tool, r#"{"fields": {"Title": "0123456789ABCDEF"}}"#).await;
    assert!(!a.is_error, "{}", a.text);
    assert_eq!(a.json()["fields"][0]["value"], "0123456789");
    assert!(a.json()["fields"][0]["note"]
        .as_str()
        .unwrap()
        .contains("maxlength of 10"));
    let outside: web_sys::HtmlInputElement =
        wasm_bindgen::JsCast::unchecked_into(fx.el("[name=o]"));
    assert_eq!(outside.value(), "", "nothing outside the root changed");
}

#[wasm_bindgen_test]
async fn forms_with_clobbering_names_or_script_actions_are_handled_safely() {
    let fx = Fixture::new(
        r#"<form id="clob"><input name="action" value="javascript:alert(1)"><input name="elements"><input name="method" value="dialog">
           <input name="getAttribute"><input name="querySelectorAll"><input name="id"><input name="submit"><input name="requestSubmit">
           <label>Real <input name="real"></label><button>Send</button></form>"#,
    );
    fx.js("root.submits = 0; root.querySelector('form').addEventListener('submit', e => { root.submits++; e.preventDefault(); });");
    let opts = with(&options("{}"), "root", &fx.root);
    let d = call(&describe_form_tool(Some(opts.clone())).unwrap(), "{}")
        .await
        .json();
    assert_eq!(d["forms"][0]["ref"], "clob");
    assert_eq!(
        d["forms"][0]["method"], "get",
        "the real method, not the control named method"
    );
    assert_eq!(d["forms"][0]["fields"].as_array().unwrap().len(), 9);
    let f = call(
        &fill_form_tool(Some(opts.clone())).unwrap(),
        r#"{"fields": {"Real": "yes"}}"#,
    )
    .await;
    assert!(!f.is_error, "{}", f.text);
    let s = call(&submit_form_tool(Some(opts)).unwrap(), "{}").await;
    assert!(!s.is_error, "{}", s.text);
    assert_eq!(fx.js("return root.submits").as_f64(), Some(1.0));

    let actions: Vec<(&str, &str)> = vec![
        (
            r#"<form action="javascript:alert(1)"><button>Go</button></form>"#,
            "javascript: scheme",
        ),
        (
            r#"<form action=" JaVaScRiPt:alert(1)"><button>Go</button></form>"#,
            "javascript: scheme",
        ),
        (
            "<form action=\"java&#9;script:alert(1)\"><button>Go</button></form>",
            "javascript: scheme",
        ),
        (
            r#"<form><button formaction="javascript:alert(1)">Go</button></form>"#,
            "javascript: scheme",
        ),
        (
            r#"<form action="data:text/html,hi"><button>Go</button></form>"#,
            "data: scheme",
        ),
        (
            r#"<form action="https://evil.example/steal" method="post"><button>Go</button></form>"#,
            "another site",
        ),
    ];
    for (html, why) in actions {
        let fx = Fixture::new(html);
        fx.js("root.submits = 0; root.querySelector('form').addEventListener('submit', e => { root.submits++; e.preventDefault(); });");
        let tool = submit_form_tool(Some(with(&options("{}"), "root", &fx.root))).unwrap();
        let a = call(&tool, "{}").await;
        refused(&a, why);
        assert_eq!(
            fx.js("return root.submits").as_f64(),
            Some(0.0),
            "{html} was submitted"
        );
    }
}

#[wasm_bindgen_test]
async fn huge_forms_stay_within_the_result_limit_and_refusals_stay_short() {
    let fx = Fixture::new("<form id=\"big\"><select name=\"pick\"></select></form><form></form>");
    fx.js(
        "const f = root.querySelector('#big'), s = f.querySelector('select');
         for (let i = 0; i < 1000; i++) s.add(new Option('Option number ' + i, 'v' + i));
         for (let i = 0; i < 3000; i++) { const el = document.createElement('input');
           el.name = 'field' + i; el.value = 'x'.repeat(60); f.appendChild(el); }",
    );
    let opts = with(&options("{}"), "root", &fx.root);
    let d = call(
        &describe_form_tool(Some(opts.clone())).unwrap(),
        r#"{"form": "big"}"#,
    )
    .await;
    assert!(!d.is_error, "{}", &d.text[..200]);
    assert!(
        d.text.chars().count() <= 65_536,
        "{} characters",
        d.text.chars().count()
    );
    assert!(d.json()["fieldsLeftOut"].as_u64().unwrap() > 2000);
    let f = call(
        &fill_form_tool(Some(opts.clone())).unwrap(),
        r#"{"form": "big", "fields": {"pick": "nope"}}"#,
    )
    .await;
    refused(&f, "Option number 19, …");
    assert!(f.text.len() < 2000, "{}", f.text.len());
    // Forms without id or name are named by their place, and that name picks them.
    let tool = describe_form_tool(Some(opts)).unwrap();
    let two = call(&tool, r#"{"form": "form 2"}"#).await;
    assert!(!two.is_error, "{}", two.text);
    assert_eq!(two.json()["forms"][0]["ref"], "form 2");
}
