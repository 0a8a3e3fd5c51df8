//! What the page tools exist to hide must not reach a hostile model, whatever it asks (issue 10):
//! locators are references, never CSS; a refusal does not depend on what lies outside the root;
//! the page URL's query and fragment stay out of results; redacted fields report a fixed
//! validity phrase; arguments the tool cannot read are refused with the reason.

use client_tools::tools::{describe_form_tool, fill_form_tool, navigate_tool, submit_form_tool};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

use crate::support::*;

const SCOPED: &str = r#"<form id="outer" data-k="s3cret"><input type="hidden" name="csrf" value="tok_abc"><input name="o"></form>
<section id="scope"><form id="f" name="main"><input type="hidden" name="csrf" value="tok_abc"><label>Note <input name="note"></label><button name="go">Send</button></form>
<form name="second"><label>X <input name="x"></label><button>Other</button></form></section>"#;

/// Hostile locators in pairs: the first would match in-scope form `f` as a CSS selector only
/// because of a secret or of something outside the root; the second differs only there.
const ORACLES: [(&str, &str); 8] = [
    (
        r#"form:has(input[value^="tok_a"])"#,
        r#"form:has(input[value^="tok_z"])"#,
    ),
    (
        r#"#outer[data-k^="s3"] ~ #scope #f"#,
        r#"#outer[data-k^="zz"] ~ #scope #f"#,
    ),
    (
        r#":root:has([data-k^="s"]) #f"#,
        r#":root:has([data-k^="q"]) #f"#,
    ),
    (
        r#"div:has(#outer input[value="tok_abc"]) #f"#,
        r#"div:has(#outer input[value="tok_abd"]) #f"#,
    ),
    ("form:nth-child(1)", "form:nth-child(9)"),
    (r"#\66 ", r"#\67 "),
    ("#f", "#g"),
    ("outer", "nowhere"),
];

#[wasm_bindgen_test]
async fn model_locators_are_references_and_never_run_as_selectors() {
    let fx = Fixture::new(SCOPED);
    fx.js("root.submits = 0; for (const f of root.querySelectorAll('form')) f.addEventListener('submit', e => { root.submits++; e.preventDefault(); });");
    let scope = fx.el("#scope");
    let rooted = |o: &str| with(&options(o), "root", &scope);
    let tools = [
        (describe_form_tool(Some(rooted("{}"))).unwrap(), "{}"),
        (
            fill_form_tool(Some(rooted("{}"))).unwrap(),
            r#"{"fields": {"note": "hi"}}"#,
        ),
        (submit_form_tool(Some(rooted("{}"))).unwrap(), "{}"),
    ];
    for (tool, base) in &tools {
        let ask = |loc: &str| {
            let mut args: serde_json::Value = serde_json::from_str(base).unwrap();
            args["form"] = loc.into();
            args.to_string()
        };
        for (hit, miss) in ORACLES {
            let (a, b) = (call(tool, &ask(hit)).await, call(tool, &ask(miss)).await);
            assert!(a.is_error, "{hit:?} was run as a selector: {}", a.text);
            // The refusal echoes the locator the model sent, and nothing else of the page's.
            let shown = a.text.replace(&format!("{hit:?}"), "LOC");
            assert_eq!(
                shown,
                b.text.replace(&format!("{miss:?}"), "LOC"),
                "{hit:?} and {miss:?} answered differently"
            );
            for secret in ["tok_abc", "s3cret"] {
                assert!(!shown.contains(secret), "{}", a.text);
            }
        }
        // What the tools hand out works: id, name, "form N".
        for loc in ["f", "main", "form 1", "second", "form 2"] {
            let a = call(tool, &ask(loc)).await;
            assert!(!a.text.contains("no form in scope"), "{loc}: {}", a.text);
        }
    }
    assert_eq!(fx.js("return root.submits").as_f64(), Some(5.0));
    let d = call(&tools[0].0, r#"{"form": "form 2"}"#).await.json();
    assert_eq!(d["forms"][0]["ref"], "second");
}

#[wasm_bindgen_test]
async fn a_field_is_named_by_its_ref_and_a_selector_names_none() {
    let fx = Fixture::new(
        r#"<form id="f"><input name="note" value="tok_abc"><input class="bare"><input type="hidden" name="csrf" value="tok_abc"></form>"#,
    );
    let scoped = || with(&options("{}"), "root", &fx.root);
    let d = call(&describe_form_tool(Some(scoped())).unwrap(), "{}").await;
    assert_eq!(
        d.json()["forms"][0]["fields"][1]["ref"],
        "field 2",
        "{}",
        d.text
    );
    let fill = fill_form_tool(Some(scoped())).unwrap();
    let a = call(&fill, r#"{"fields": {"field 2": "by place"}}"#).await;
    assert!(!a.is_error, "{}", a.text);
    assert_eq!(
        fx.el(".bare")
            .unchecked_into::<web_sys::HtmlInputElement>()
            .value(),
        "by place"
    );
    for (hit, miss) in [
        (r#"[value^="tok_a"]"#, r#"[value^="tok_z"]"#),
        ("input.bare", "input.nope"),
        (
            r#"form:has([name=csrf][value^="t"]) [name=note]"#,
            r#"form:has([name=csrf][value^="x"]) [name=note]"#,
        ),
    ] {
        let ask = |loc: &str| serde_json::json!({ "fields": { loc: "x" } }).to_string();
        let (a, b) = (call(&fill, &ask(hit)).await, call(&fill, &ask(miss)).await);
        refused(&a, "no field in this form");
        let reason = |x: &Answer, loc: &str| {
            let r = x.json()["fields"][0]["reason"]
                .as_str()
                .unwrap()
                .to_string();
            r.replace(&format!("{loc:?}"), "LOC")
        };
        assert_eq!(reason(&a, hit), reason(&b, miss));
    }
}

#[wasm_bindgen_test]
async fn a_label_outside_the_root_does_not_name_a_field() {
    let fx = Fixture::new(
        r#"<label for="inside-note">Secret label</label><span id="outside-l">Outside words</span>
        <section id="scope"><form id="f"><input id="inside-note" name="n1"><input name="n2" aria-labelledby="outside-l"></form></section>"#,
    );
    let tool = describe_form_tool(Some(with(&options("{}"), "root", &fx.el("#scope")))).unwrap();
    let a = call(&tool, "{}").await;
    assert!(!a.is_error, "{}", a.text);
    assert!(!a.text.contains("Secret label"), "{}", a.text);
    assert!(!a.text.contains("Outside words"), "{}", a.text);
}

fn here() -> String {
    web_sys::window().unwrap().location().href().unwrap()
}

/// Gives the test page a secret query and fragment, and puts its address back afterwards.
struct SecretUrl(String);

impl SecretUrl {
    fn new() -> SecretUrl {
        let old = here();
        let loc = web_sys::window().unwrap().location();
        let path = loc.pathname().unwrap();
        set_url(&format!("{path}?reset=tok_secret#frag_secret"));
        SecretUrl(old)
    }
}

fn set_url(url: &str) {
    let h = web_sys::window().unwrap().history().unwrap();
    h.replace_state_with_url(&JsValue::NULL, "", Some(url))
        .unwrap();
}

impl Drop for SecretUrl {
    fn drop(&mut self) {
        set_url(&self.0);
    }
}

#[wasm_bindgen_test]
async fn the_page_urls_query_and_fragment_never_reach_the_model() {
    let secret = SecretUrl::new();
    let secret_url = here();
    let path = web_sys::window().unwrap().location().pathname().unwrap();
    let clean = |a: &Answer| {
        assert!(
            !a.text.contains("tok_secret") && !a.text.contains("frag_secret"),
            "the page's own query or fragment reached the model: {}",
            a.text
        );
    };
    let nav = navigate_tool(None).unwrap();
    for (input, shown) in [
        ("#top", format!("{path}#top")),
        ("?page=2", format!("{path}?page=2")),
        ("", String::new()),
    ] {
        let a = call(&nav, &serde_json::json!({ "url": input }).to_string()).await;
        clean(&a);
        if !shown.is_empty() {
            assert!(!a.is_error, "{input}: {}", a.text);
            assert_eq!(a.json()["path"], shown.as_str(), "{input}");
        }
        set_url(&secret_url);
    }
    let doc = navigate_tool(Some(options(r#"{"mode": "document"}"#))).unwrap();
    clean(&call(&doc, r##"{"url": "#top"}"##).await);
    let declined = navigate_tool(Some(with(
        &options("{}"),
        "confirm",
        &js_fn("a", "return false"),
    )))
    .unwrap();
    clean(&call(&declined, r##"{"url": "#top"}"##).await);

    // A form without an action goes to the page's own URL, query included.
    let fx =
        Fixture::new(r#"<form id="bare"><input name="q" value="1"><button>Go</button></form>"#);
    fx.js("root.querySelector('form').addEventListener('submit', () => {});");
    let submit = submit_form_tool(Some(with(&options("{}"), "root", &fx.root))).unwrap();
    let a = call(&submit, "{}").await;
    assert!(!a.is_error, "{}", a.text);
    clean(&a);
    assert_eq!(a.deferred, 1);
    let d = call(
        &describe_form_tool(Some(with(&options("{}"), "root", &fx.root))).unwrap(),
        "{}",
    )
    .await;
    clean(&d);
    drop(secret);
}

const REDACTED: &str = r#"<form id="r">
<label>Password <input type="password" name="pw" minlength="12" pattern="[a-z]{12,}" required></label>
<label>Card <input name="card" autocomplete="cc-number" pattern="[0-9]{16}" value="4111"></label>
<label>Code <input name="otp" autocomplete="one-time-code" required></label>
<label>New <input name="np" autocomplete="new-password" pattern="[a-z]{10,}" value="Hunter2"></label>
<label>SSN <input name="ssn" class="private" pattern="[0-9]{9}" value="123-45"></label>
<label>Email <input name="email" type="email" value="not-an-email"></label>
<button>Go</button></form>"#;

fn by_name<'a>(list: &'a serde_json::Value, key: &str, name: &str) -> &'a serde_json::Value {
    list.as_array()
        .unwrap()
        .iter()
        .find(|f| f[key] == name)
        .unwrap_or_else(|| panic!("no {name} in {list}"))
}

#[wasm_bindgen_test]
async fn redacted_fields_report_validity_as_a_fixed_phrase() {
    let fx = Fixture::new(REDACTED);
    fx.js("root.querySelector('form').addEventListener('submit', e => e.preventDefault());");
    // The password is typed (execCommand: Chromium applies minlength to user edits only, so
    // the pattern is what makes it invalid here; the non-interference suite types for real).
    fx.js("const pw = root.querySelector('[name=pw]'); pw.focus(); document.execCommand('insertText', false, 'hunter2'); pw.blur();");
    let opts = || {
        with(
            &with(&options(r#"{"sensitive": [".private"]}"#), "root", &fx.root),
            "allowSensitive",
            &JsValue::TRUE,
        )
    };
    let secrets = [
        "hunter2",
        "4111",
        "Hunter2",
        "123-45",
        "characters",
        "format",
    ];
    let leak_free = |text: &str| {
        for s in secrets {
            assert!(!text.contains(s), "{s:?} reached the model: {text}");
        }
    };
    let d = call(&describe_form_tool(Some(opts())).unwrap(), "{}").await;
    let fields = &d.json()["forms"][0]["fields"];
    for (name, phrase) in [
        ("pw", "invalid"),
        ("card", "invalid"),
        ("otp", "required and empty"),
        ("np", "invalid"),
        ("ssn", "invalid"),
    ] {
        let f = by_name(fields, "name", name);
        assert_eq!(f["valid"], false, "{name}: {f}");
        assert_eq!(f["validationMessage"], phrase, "{name}: {f}");
        assert_eq!(f["value"], serde_json::Value::Null, "{name}: {f}");
    }
    leak_free(&d.text);
    // A field the model may read keeps the browser's own message.
    let email = by_name(fields, "name", "email");
    assert_ne!(email["validationMessage"], "invalid");

    let s = call(&submit_form_tool(Some(opts())).unwrap(), "{}").await;
    leak_free(&s.text);
    let invalid = &s.json()["invalid"];
    assert_eq!(
        by_name(invalid, "field", "pw")["validationMessage"],
        "invalid"
    );
    assert_eq!(
        by_name(invalid, "field", "otp")["validationMessage"],
        "required and empty"
    );
    assert_eq!(
        by_name(invalid, "field", "ssn")["validationMessage"],
        "invalid"
    );

    let f = call(
        &fill_form_tool(Some(opts())).unwrap(),
        r#"{"fields": {"card": "12", "ssn": "9"}}"#,
    )
    .await;
    leak_free(&f.text);
    for line in f.json()["fields"].as_array().unwrap() {
        assert_eq!(line["value"], "[redacted]", "{line}");
        assert_eq!(line["validationMessage"], "invalid", "{line}");
    }
    // Without allowSensitive the app's sensitive list is refused like a password.
    let plain = fill_form_tool(Some(with(
        &options(r#"{"sensitive": [".private"]}"#),
        "root",
        &fx.root,
    )))
    .unwrap();
    refused(
        &call(&plain, r#"{"fields": {"ssn": "1"}}"#).await,
        "the app did not allow filling it",
    );
    assert!(describe_form_tool(Some(options(r#"{"sensitive": ["[["]}"#))).is_err());
    assert!(describe_form_tool(Some(options(r#"{"sensitive": "x"}"#))).is_err());
}

const DEEP: &str = "let o = {}, c = o; for (let i = 0; i < 10000; i++) { c.a = {}; c = c.a; }";
/// Deep enough for `JSON.stringify` itself to give up in Firefox (an InternalError, "too much
/// recursion") and WebKit (a RangeError), and short enough as JSON (900,000 bytes) to be under
/// ARGS_MAX where Chromium writes it: named "nested too deeply" in every engine.
const TOO_DEEP_FOR_JS: &str =
    "let o = {}, c = o; for (let i = 0; i < 150000; i++) { c.a = {}; c = c.a; }";

#[wasm_bindgen_test]
async fn unreadable_arguments_are_refused_with_the_reason() {
    let fx = Fixture::new(
        r#"<form id="f"><label>Note <input name="note"></label><button name="save">Save</button><button name="del">Delete</button></form>"#,
    );
    fx.js("window.__submits = 0; root.querySelector('form').addEventListener('submit', e => { window.__submits++; e.preventDefault(); });");
    let scoped = || with(&options("{}"), "root", &fx.root);
    let submit = submit_form_tool(Some(scoped())).unwrap();
    let deep_button = format!("{DEEP} return {{ button: o }};");
    let deeper_button = format!("{TOO_DEEP_FOR_JS} return {{ button: o }};");
    let rows: [(&str, &str); 8] = [
        (&deep_button, "nested too deeply"),
        (&deeper_button, "nested too deeply"),
        (
            "let o = {}; o.o = o; return { button: o };",
            "cannot be read",
        ),
        (
            "return { button: () => 'Delete' };",
            "button must be a string",
        ),
        ("return { button: NaN };", "button must be a string"),
        ("return { button: 10n };", "cannot be read"),
        ("return { button: ['Delete'] };", "button must be a string"),
        ("return { form: {} };", "form must be a string"),
    ];
    for (make, why) in rows {
        let a = call_js(&submit, make).await;
        refused(&a, why);
    }
    assert_eq!(
        fx.js("return window.__submits").as_f64(),
        Some(0.0),
        "an unreadable button was read as absent and the form submitted"
    );
    let describe = describe_form_tool(Some(scoped())).unwrap();
    refused(
        &call_js(&describe, "return { form: function () {} };").await,
        "form must be a string",
    );
    refused(
        &call_js(&describe, &format!("{DEEP} return {{ form: o }};")).await,
        "nested too deeply",
    );
    let fill = fill_form_tool(Some(scoped())).unwrap();
    let a = call_js(
        &fill,
        &format!("{DEEP} return {{ fields: {{ note: o }} }};"),
    )
    .await;
    refused(&a, "nested too deeply");
    refused(
        &call_js(
            &fill,
            "return { form: Symbol('x'), fields: { note: 'a' } };",
        )
        .await,
        "form must be a string",
    );
    let nav = navigate_tool(None).unwrap();
    refused(
        &call_js(&nav, &format!("{DEEP} return {{ url: o }};")).await,
        "nested too deeply",
    );
    refused(
        &call_js(&nav, "return { url: () => '/x' };").await,
        "url must be a string",
    );
    fx.js("delete window.__submits;");
}
