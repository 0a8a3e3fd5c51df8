//! Fixtures and a call harness: a tool is called exactly as the SDK's shell calls it, through
//! its JS `handler(args, ctx)`.

#[path = "../web/borrows.rs"]
mod borrows;

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Function, Object, Reflect};
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Element, HtmlElement};

/// An appended `<div>` holding the test's markup; removed when dropped.
pub struct Fixture {
    pub root: HtmlElement,
}

impl Fixture {
    pub fn new(html: &str) -> Fixture {
        let doc = web_sys::window().unwrap().document().unwrap();
        let root: HtmlElement = doc.create_element("div").unwrap().unchecked_into();
        root.set_inner_html(html);
        doc.body().unwrap().append_child(&root).unwrap();
        Fixture { root }
    }

    /// The element matching `selector` inside the fixture.
    pub fn el(&self, selector: &str) -> Element {
        self.root
            .query_selector(selector)
            .unwrap()
            .unwrap_or_else(|| panic!("fixture has no {selector}"))
    }

    /// Runs a snippet of JS with `root` bound to the fixture (to add listeners, read state).
    pub fn js(&self, body: &str) -> JsValue {
        Function::new_with_args("root", body)
            .call1(&JsValue::NULL, &self.root)
            .unwrap()
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        self.root.remove();
    }
}

/// Options for a factory: JSON for the plain parts, then elements and functions set on top.
pub fn options(json: &str) -> Object {
    js_sys::JSON::parse(json).unwrap().unchecked_into()
}

pub fn with(o: &Object, key: &str, value: &JsValue) -> Object {
    Reflect::set(o, &key.into(), value).unwrap();
    o.clone()
}

/// A JS function from source, e.g. `js_fn("a", "return a.kind === 'submit'")`.
pub fn js_fn(args: &str, body: &str) -> JsValue {
    Function::new_with_args(args, body).into()
}

/// What a handler answered.
#[derive(Debug)]
pub struct Answer {
    pub is_error: bool,
    pub text: String,
    /// Functions the tool handed to `ctx.afterResult` (never run by these tests: they load
    /// another page).
    pub deferred: usize,
}

impl Answer {
    /// The text parsed as JSON (both success and refusal texts of fill and submit are JSON).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text))
    }
}

/// Calls `tool.handler(args, ctx)` with a ctx like the shell's; `abort` pre-aborts its signal.
pub async fn call_with(tool: &JsValue, args: &str, abort: bool) -> Answer {
    let handler: Function = Reflect::get(tool, &"handler".into())
        .unwrap()
        .unchecked_into();
    let args = js_sys::JSON::parse(args).unwrap();
    let ctx = Object::new();
    let deferred = Rc::new(RefCell::new(Vec::<JsValue>::new()));
    let d = deferred.clone();
    let after = Closure::<dyn FnMut(JsValue)>::new(move |f: JsValue| d.borrow_mut().push(f));
    let controller = web_sys::AbortController::new().unwrap();
    if abort {
        controller.abort();
    }
    Reflect::set(&ctx, &"callId".into(), &"call_1".into()).unwrap();
    Reflect::set(&ctx, &"runId".into(), &"run_1".into()).unwrap();
    Reflect::set(&ctx, &"signal".into(), &controller.signal()).unwrap();
    Reflect::set(&ctx, &"afterResult".into(), after.as_ref()).unwrap();
    let ret = handler
        .call2(&JsValue::NULL, &args, &ctx)
        .expect("a handler never throws");
    let out = JsFuture::from(js_sys::Promise::resolve(&ret))
        .await
        .expect("a handler never rejects");
    borrows::assert_no_borrow_across_js("the tool's call");
    let deferred = deferred.borrow().len();
    if let Some(text) = out.as_string() {
        return Answer {
            is_error: false,
            text,
            deferred,
        };
    }
    let is_error = Reflect::get(&out, &"isError".into()).unwrap();
    let text = Reflect::get(&out, &"text".into()).unwrap();
    assert_eq!(
        is_error.as_bool(),
        Some(true),
        "an object result is an error result"
    );
    Answer {
        is_error: true,
        text: text.as_string().expect("text is a string"),
        deferred,
    }
}

pub async fn call(tool: &JsValue, args: &str) -> Answer {
    call_with(tool, args, false).await
}

/// Asserts that the answer is an error whose text contains `needle`.
#[track_caller]
pub fn refused(a: &Answer, needle: &str) {
    assert!(
        a.is_error,
        "expected a refusal containing {needle:?}, got success: {}",
        a.text
    );
    assert!(
        a.text.contains(needle),
        "refusal {:?} does not mention {needle:?}",
        a.text
    );
}

/// Calls the handler with a JS value built by `make_args` (source of a function body that
/// returns the arguments), for arguments JSON cannot spell: a 10,000-deep object, a function.
pub async fn call_js(tool: &JsValue, make_args: &str) -> Answer {
    let args = Function::new_no_args(make_args)
        .call0(&JsValue::NULL)
        .unwrap();
    call_value(tool, args).await
}

/// Calls the handler with these arguments exactly as given.
pub async fn call_value(tool: &JsValue, args: JsValue) -> Answer {
    let handler: Function = Reflect::get(tool, &"handler".into())
        .unwrap()
        .unchecked_into();
    let ctx = Object::new();
    let after = Closure::<dyn FnMut(JsValue)>::new(|_f: JsValue| {});
    Reflect::set(&ctx, &"afterResult".into(), after.as_ref()).unwrap();
    let ret = handler
        .call2(&JsValue::NULL, &args, &ctx)
        .expect("a handler never throws");
    let out = JsFuture::from(js_sys::Promise::resolve(&ret))
        .await
        .expect("a handler never rejects");
    borrows::assert_no_borrow_across_js("the tool's call");
    if let Some(text) = out.as_string() {
        return Answer {
            is_error: false,
            text,
            deferred: 0,
        };
    }
    Answer {
        is_error: true,
        text: Reflect::get(&out, &"text".into())
            .unwrap()
            .as_string()
            .expect("text is a string"),
        deferred: 0,
    }
}

/// The ref a line of `read_page`'s outline or `read_table`'s rows shows (`[ref=e12]` gives `e12`).
pub fn ref_in(line: &str) -> String {
    let at = line
        .find("[ref=")
        .unwrap_or_else(|| panic!("no ref in {line}"));
    line[at + 5..].split(']').next().unwrap().to_string()
}

/// The ref on the outline's line that starts with `start` (after its indent and `- `).
pub fn ref_on(outline: &str, start: &str) -> String {
    let line = (outline.lines())
        .find(|l| l.trim_start().trim_start_matches("- ").starts_with(start))
        .unwrap_or_else(|| panic!("no line {start}:\n{outline}"));
    ref_in(line)
}

/// A tool's arguments naming one element by its ref.
pub fn by_ref(r: &str) -> String {
    format!(r#"{{"ref": "{r}"}}"#)
}

/// The outline's lines with each ref shown as `eN`: refs are the SDK's numbers, which depend
/// on what was read before.
pub fn refs_as_en(page: &str) -> Vec<String> {
    page.lines()
        .map(|l| {
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
        .collect()
}
