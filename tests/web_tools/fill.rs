//! fill_form: values through the prototype setters with bubbling events, toggles clicked only
//! when needed, choices by value or label, browser-checked formats, and every refusal.

use client_tools::tools::{describe_form_tool, fill_form_tool};
use serde_json::json;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;
use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

use crate::support::*;

fn fill(fx: &Fixture, extra: &str) -> wasm_bindgen::JsValue {
    fill_form_tool(Some(with(&options(extra), "root", &fx.root))).unwrap()
}

fn input(fx: &Fixture, sel: &str) -> HtmlInputElement {
    fx.el(sel).unchecked_into()
}

#[wasm_bindgen_test]
async fn text_goes_through_the_prototype_setter_and_fires_bubbling_input_and_change() {
    let fx = Fixture::new(
        r#"<form><label>Name <input id="name"></label><textarea name="bio" aria-label="Bio"></textarea></form>"#,
    );
    // React-like: an own `value` accessor on the element that a direct assignment would hit.
    fx.js(
        "const el = root.querySelector('#name'); root.log = [];
         const proto = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value');
         Object.defineProperty(el, 'value', { configurable: true,
           get() { return proto.get.call(this); },
           set(v) { root.log.push('own-setter'); proto.set.call(this, v); } });
         for (const t of ['input', 'change']) root.addEventListener(t, e => root.log.push(t + ':' + e.target.id + ':' + e.bubbles));",
    );
    let a = call(
        &fill(&fx, "{}"),
        r#"{"fields": {"Name": "Ada Lovelace", "Bio": "line one\nline two"}}"#,
    )
    .await;
    assert!(!a.is_error, "{}", a.text);
    let d = a.json();
    assert_eq!(d["filled"], 2);
    assert_eq!(
        d["fields"][0],
        json!({"field": "Name", "status": "set", "value": "Ada Lovelace"})
    );
    assert_eq!(input(&fx, "#name").value(), "Ada Lovelace");
    let bio: HtmlTextAreaElement = fx.el("textarea").unchecked_into();
    assert_eq!(bio.value(), "line one\nline two");
    let log: Vec<String> = serde_json::from_str(
        &js_sys::JSON::stringify(&fx.js("return root.log"))
            .unwrap()
            .as_string()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        log[..2],
        ["input:name:true", "change:name:true"],
        "own setter bypassed, events bubble: {log:?}"
    );
    assert!(!log.contains(&"own-setter".to_string()));
}

#[wasm_bindgen_test]
async fn toggles_are_clicked_only_when_their_state_must_change() {
    let fx = Fixture::new(
        r#"<form><label><input type="checkbox" name="news" checked> News</label>
        <label><input type="checkbox" name="terms"> Terms</label>
        <label><input type="checkbox" name="tags" value="a"> Alpha</label><label><input type="checkbox" name="tags" value="b" checked> Beta</label>
        <label><input type="radio" name="size" value="s"> Small</label><label><input type="radio" name="size" value="l"> Large</label></form>"#,
    );
    fx.js("root.clicks = 0; root.addEventListener('click', () => root.clicks++);");
    let a = call(
        &fill(&fx, "{}"),
        r#"{"fields": {"news": true, "Terms": true, "tags": ["Alpha"], "size": "Large"}}"#,
    )
    .await;
    assert!(!a.is_error, "{}", a.text);
    // news was already on: only terms, alpha, beta (off) and the radio are clicked.
    assert_eq!(fx.js("return root.clicks").as_f64(), Some(4.0));
    assert!(input(&fx, "[name=terms]").checked());
    assert!(input(&fx, "[value=a]").checked() && !input(&fx, "[value=b]").checked());
    assert!(input(&fx, "[value=l]").checked());
    assert_eq!(a.json()["fields"][2]["value"], json!(["Alpha"]));
    let again = call(
        &fill(&fx, "{}"),
        r#"{"fields": {"news": true, "size": "l"}}"#,
    )
    .await;
    assert!(!again.is_error);
    assert_eq!(
        fx.js("return root.clicks").as_f64(),
        Some(4.0),
        "no click when nothing changes"
    );
}

#[wasm_bindgen_test]
async fn selects_by_value_or_label_and_several_for_multiple() {
    let fx = Fixture::new(
        r#"<form><select name="country"><option value="fr">France</option><option value="jp">Japan</option><option value="x" disabled>Closed</option></select>
        <select name="langs" multiple><option value="en">English</option><option value="ja">Japanese</option><option value="de">German</option></select></form>"#,
    );
    let tool = fill(&fx, "{}");
    let a = call(
        &tool,
        r#"{"fields": {"country": "japan", "langs": ["en", "German"]}}"#,
    )
    .await;
    assert!(!a.is_error, "{}", a.text);
    let country: HtmlSelectElement = fx.el("[name=country]").unchecked_into();
    assert_eq!(country.value(), "jp");
    assert_eq!(a.json()["fields"][1]["value"], json!(["en", "de"]));
    let r = call(&tool, r#"{"fields": {"country": "Closed"}}"#).await;
    refused(&r, "disabled");
    let r = call(&tool, r#"{"fields": {"country": "Atlantis"}}"#).await;
    refused(&r, "not one of: France, Japan, Closed");
    assert_eq!(country.value(), "jp", "a refused choice changes nothing");
}

#[wasm_bindgen_test]
async fn dates_times_numbers_ranges_and_colors_are_checked_and_read_back() {
    let fx = Fixture::new(
        r#"<form><input type="date" name="d" value="2020-01-01"><input type="time" name="t"><input type="number" name="n" min="1" max="10">
        <input type="range" name="r" min="0" max="100" step="10"><input type="color" name="c"><input type="datetime-local" name="dt"><input type="month" name="m"><input type="week" name="w"></form>"#,
    );
    let tool = fill(&fx, "{}");
    let a = call(&tool, r##"{"fields": {"d": "2024-02-29", "t": "13:45", "n": 7, "r": 73, "c": "#A0B1C2", "dt": "2024-05-06T07:08", "m": "2024-05", "w": "2024-W19"}}"##).await;
    assert!(!a.is_error, "{}", a.text);
    let d = a.json();
    assert_eq!(d["fields"][0]["status"], "set");
    assert_eq!(input(&fx, "[name=n]").value(), "7");
    // The browser rounds a range to its step: reported as changed, with the value it holds.
    assert_eq!(d["fields"][3]["status"], "changed");
    assert_eq!(d["fields"][3]["value"], "70");
    assert_eq!(input(&fx, "[name=c]").value(), "#a0b1c2");
    assert_eq!(d["fields"][4]["status"], "set");

    // Where the browser has a month picker (Chromium) its parser refuses "May"; where it has
    // none (Firefox, Safari) the field is a text field (its `type` reads "text"), where a person
    // could type "May" too, and so may the agent.
    let has_month = input(&fx, "[name=m]").type_() == "month";
    let bad = call(
        &tool,
        r#"{"fields": {"d": "2023-02-30", "t": "25:00", "n": "seven", "c": "red", "m": "May"}}"#,
    )
    .await;
    refused(&bad, "YYYY-MM-DD");
    let d = bad.json();
    assert_eq!(d["refused"], if has_month { 5 } else { 4 }, "{}", bad.text);
    if has_month {
        assert!(d["fields"][4]["reason"]
            .as_str()
            .unwrap()
            .contains("YYYY-MM"));
    } else {
        assert_eq!(d["fields"][4]["status"], "set", "{}", bad.text);
        assert_eq!(input(&fx, "[name=m]").value(), "May");
    }
    assert!(d["fields"][1]["reason"].as_str().unwrap().contains("HH:MM"));
    assert!(d["fields"][2]["reason"]
        .as_str()
        .unwrap()
        .contains("not a valid number"));
    assert!(d["fields"][3]["reason"]
        .as_str()
        .unwrap()
        .contains("#rrggbb"));
    assert_eq!(
        input(&fx, "[name=d]").value(),
        "2024-02-29",
        "a refused date keeps the old one"
    );
    assert_eq!(input(&fx, "[name=n]").value(), "7");
    // Out of range is set (the person could type it) but reported invalid.
    let over = call(&tool, r#"{"fields": {"n": 11}}"#).await;
    assert!(!over.is_error);
    assert_eq!(over.json()["fields"][0]["valid"], false);
}

#[wasm_bindgen_test]
async fn maxlength_cuts_and_says_so_and_contenteditable_gets_plain_text() {
    let fx = Fixture::new(
        r#"<form><input name="code" maxlength="4"><div contenteditable="true" id="ed" aria-label="Notes"></div></form>"#,
    );
    let a = call(
        &fill(&fx, "{}"),
        r#"{"fields": {"code": "ABCDEFG", "Notes": "<img src=x onerror=alert(1)>hi"}}"#,
    )
    .await;
    assert!(!a.is_error, "{}", a.text);
    let d = a.json();
    assert_eq!(d["fields"][0]["status"], "changed");
    assert_eq!(d["fields"][0]["value"], "ABCD");
    assert!(d["fields"][0]["note"]
        .as_str()
        .unwrap()
        .contains("maxlength"));
    let ed = fx.el("#ed");
    assert_eq!(ed.child_element_count(), 0, "the text never becomes markup");
    assert_eq!(ed.text_content().unwrap(), "<img src=x onerror=alert(1)>hi");
}

#[wasm_bindgen_test]
async fn refuses_disabled_read_only_invisible_hidden_file_and_secret_fields() {
    let fx = Fixture::new(
        r#"<form><input name="dis" disabled><fieldset disabled><input name="infs"></fieldset><input name="ro" readonly>
        <input name="gone" style="display:none"><input name="ghost" style="visibility:hidden"><input name="clear" style="opacity:0">
        <div inert><input name="inert"></div><input type="hidden" name="h"><input type="file" name="f"><input type="password" name="pw">
        <input name="cc" autocomplete="cc-number"><input name="otp" autocomplete="one-time-code"><input name="ok"></form>"#,
    );
    let a = call(
        &fill(&fx, "{}"),
        r#"{"fields": {"dis": "x", "infs": "x", "ro": "x", "gone": "x", "ghost": "x", "clear": "x", "inert": "x", "h": "x", "f": {"name": "a.txt", "text": "x"}, "pw": "x", "cc": "4111", "otp": "1", "ok": "fine"}}"#,
    )
    .await;
    refused(&a, "disabled");
    let d = a.json();
    let reasons: Vec<&str> = d["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["reason"].as_str().unwrap_or(""))
        .collect();
    let want = [
        "disabled",
        "disabled",
        "read-only",
        "not visible",
        "not visible",
        "not visible",
        "not visible",
        "hidden fields",
        "file fields",
        "a password",
        "payment card",
        "one-time code",
    ];
    for (i, w) in want.iter().enumerate() {
        assert!(
            reasons[i].contains(w),
            "field {i}: {:?} should mention {w:?}",
            reasons[i]
        );
    }
    assert_eq!(
        d["fields"][12]["status"], "set",
        "the allowed field is still filled"
    );
    assert_eq!(
        (d["filled"].as_u64(), d["refused"].as_u64()),
        (Some(1), Some(12))
    );
    for name in ["dis", "ro", "h", "pw", "cc"] {
        assert_eq!(
            input(&fx, &format!("[name={name}]")).value(),
            "",
            "{name} was changed"
        );
    }
}

#[wasm_bindgen_test]
async fn opt_ins_allow_secrets_hidden_and_files_but_never_echo_secrets() {
    let fx = Fixture::new(
        r#"<form><input type="password" name="pw"><input type="hidden" name="h"><input type="file" name="f"></form>"#,
    );
    let tool = fill(
        &fx,
        r#"{"allowSensitive": true, "allowHidden": true, "allowFiles": true}"#,
    );
    let a = call(&tool, r#"{"fields": {"pw": "hunter2", "h": "v", "f": {"name": "notes.txt", "text": "hello", "type": "text/plain"}}}"#).await;
    assert!(!a.is_error, "{}", a.text);
    assert!(
        !a.text.contains("hunter2"),
        "a secret is never echoed: {}",
        a.text
    );
    assert_eq!(input(&fx, "[name=pw]").value(), "hunter2");
    assert_eq!(input(&fx, "[name=h]").value(), "v");
    let files = input(&fx, "[name=f]").files().unwrap();
    assert_eq!(
        (files.length(), files.item(0).unwrap().name()),
        (1, "notes.txt".to_string())
    );
    let bad = call(
        &tool,
        r#"{"fields": {"f": {"name": "../../etc/passwd", "text": "x"}}}"#,
    )
    .await;
    refused(&bad, "not a plain file name");
}

#[wasm_bindgen_test]
async fn the_users_focus_comes_back_and_a_cancelled_call_changes_nothing() {
    let fx = Fixture::new(r#"<input id="chat"><form><label>Name <input name="n"></label></form>"#);
    let chat: web_sys::HtmlElement = fx.el("#chat").unchecked_into();
    chat.focus().unwrap();
    let tool = fill_form_tool(Some(with(&options("{}"), "root", &fx.el("form")))).unwrap();
    let a = call(&tool, r#"{"fields": {"Name": "Ada"}}"#).await;
    assert!(!a.is_error, "{}", a.text);
    let active = web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .active_element()
        .unwrap();
    assert_eq!(
        active.id(),
        "chat",
        "focus returned to where the user had it"
    );
    let cancelled = call_with(&tool, r#"{"fields": {"Name": "Bob"}}"#, true).await;
    refused(&cancelled, "cancelled or timed out");
    assert_eq!(input(&fx, "[name=n]").value(), "Ada");
}

#[wasm_bindgen_test]
async fn filling_does_not_wait_on_timers_that_a_background_tab_throttles() {
    let fx = Fixture::new(
        r#"<form><input name="a"><input name="b"><input name="c"><label><input type="checkbox" name="d"> D</label></form>"#,
    );
    // As in a hidden tab: every timer fires seconds late.
    fx.js("root.realTimeout = window.setTimeout; window.setTimeout = (f, ms, ...rest) => root.realTimeout(f, Math.max(ms || 0, 2000), ...rest); root.t0 = performance.now();");
    let a = call(
        &fill(&fx, "{}"),
        r#"{"fields": {"a": "1", "b": "2", "c": "3", "d": true}}"#,
    )
    .await;
    let ms = fx
        .js("window.setTimeout = root.realTimeout; return performance.now() - root.t0;")
        .as_f64()
        .unwrap();
    assert!(!a.is_error, "{}", a.text);
    assert!(ms < 1000.0, "four fields took {ms} ms");
}

/// fill_form does only what a person could (issue 40): no option of a disabled `<optgroup>`
/// (`:disabled`, not `option.disabled`), no hidden option, no field of a disabled fieldset, no
/// field off the page, 1 × 1, clipped, at opacity 0.01 or under an opaque box (the refusal
/// says "covered" and never names what covers it); describe_form shows no value of a field it
/// marks not visible.
#[wasm_bindgen_test]
async fn refuses_what_a_person_could_not_do() {
    let fx = Fixture::new(
        r#"<form style="background:#fff"><select name="s"><option value="a">A</option><optgroup label="G" disabled><option value="og">In a disabled group</option></optgroup><option value="hid" hidden>Hidden</option></select>
  <fieldset disabled><input name="infs"></fieldset>
  <input name="off" value="off-secret" style="position:absolute;left:-5000px">
  <input name="tiny" value="tiny-secret" style="width:1px;height:1px;padding:0;border:0">
  <span style="display:inline-block;width:30px;height:30px;overflow:hidden"><input name="clipped" value="clipped-secret" style="margin-left:100px"></span>
  <input name="faint" value="faint-secret" style="opacity:0.01">
  <span style="position:relative;display:inline-block"><input name="under" value="under-secret"><span id="lid-9f3" class="overlay-x" style="position:absolute;left:0;top:0;right:0;bottom:0;background:#fff"></span></span>
  <label><input type="radio" name="r" value="1"> One</label><label style="display:none"><input type="radio" name="r" value="2"> Two</label>
  <input name="ok"></form>"#,
    );
    fx.js("root.scrollIntoView({block: 'start'})");
    let a = call(
        &fill(&fx, "{}"),
        r#"{"fields": {"s": "og", "infs": "x", "off": "x", "tiny": "x", "clipped": "x", "faint": "x", "under": "x", "r": "2", "ok": "fine"}}"#,
    )
    .await;
    refused(&a, "disabled");
    let d = a.json();
    let reasons: Vec<&str> = d["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["reason"].as_str().unwrap_or(""))
        .collect();
    let want = [
        "the option \"og\" is disabled",
        "the field is disabled",
        "not visible on the page: off the page",
        "not visible on the page: too small to see",
        "not visible on the page: clipped out of view",
        "not visible on the page: transparent",
        "not visible on the page: covered",
        "the choice \"2\" is not visible on the page: hidden",
    ];
    for (i, w) in want.iter().enumerate() {
        assert!(
            reasons[i].contains(w),
            "field {i}: {:?} should say {w:?}",
            reasons[i]
        );
    }
    // "covered" never names what covers the field.
    for name in ["lid-9f3", "overlay-x", "span"] {
        assert!(!a.text.contains(name), "{}", a.text);
    }
    assert_eq!(d["fields"][8]["status"], "set");
    let hidden = call(&fill(&fx, "{}"), r#"{"fields": {"s": "hid"}}"#).await;
    refused(&hidden, "is hidden");
    assert_eq!(
        hidden.json()["fields"][0]["reason"],
        "the option \"hid\" is hidden"
    );
    let values = fx.js(
        "return ['s', 'off', 'under'].map(n => root.querySelector(`[name=${n}]`).value).join()",
    );
    assert_eq!(values.as_string().unwrap(), "a,off-secret,under-secret");
    // describe_form: no value of an unseen field, no hidden option, `:disabled` options marked.
    let desc = describe_form_tool(Some(with(&options("{}"), "root", &fx.root))).unwrap();
    let d = call(&desc, "{}").await;
    for secret in [
        "off-secret",
        "tiny-secret",
        "clipped-secret",
        "faint-secret",
        "under-secret",
        "Hidden",
        "Two",
    ] {
        assert!(!d.text.contains(secret), "{secret}: {}", d.text);
    }
    let d = d.json();
    let fields = d["forms"][0]["fields"].as_array().unwrap();
    let s = &fields[0];
    assert_eq!(s["options"].as_array().unwrap().len(), 2, "{s}");
    assert_eq!(s["options"][1]["disabled"], true, "{s}");
    for f in &fields[2..7] {
        assert_eq!(f["visible"], false, "{f}");
        assert_eq!(f["value"], serde_json::Value::Null, "{f}");
    }
}
