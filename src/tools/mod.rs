//! Ready-made page tools: describe, fill and submit a form; navigate. Each factory returns a
//! tool definition (`{ name, description, parameters, handler }`) for `Client.register` and
//! `setTools`. The agent's arguments are treated as hostile: every tool stays inside the root
//! the app gave it, refuses what a careful person would not do, and answers a refusal with an
//! `{ isError: true, text }` result, never a throw.

mod api;
#[cfg(feature = "page-reading")]
mod click;
mod controls;
mod describe;
mod dom;
mod fields;
mod fill;
#[cfg(feature = "page-reading")]
mod highlight;
mod labels;
mod navigate;
mod options;
#[cfg(feature = "page-reading")]
mod page;
#[cfg(feature = "page-reading")]
mod refs;
#[cfg(feature = "page-reading")]
mod roles;
#[cfg(feature = "page-reading")]
mod roots;
mod scope;
mod submit;
#[cfg(feature = "page-reading")]
mod table;
mod text;
mod url;
mod visible;

#[cfg(feature = "page-reading")]
pub use api::{click, highlight, read_page, read_table, PageOptions, PageRoot};
pub use api::{
    describe_form, fill_form, navigate, submit_form, FormOptions, FormRef, NavigateMode,
    NavigateOptions, PageAction,
};
#[cfg(feature = "js-api")]
use std::rc::Rc;

// The one JS plumbing module of the SDK, shared with the browser shell.
use crate::js;

use wasm_bindgen::prelude::*;

use js::json::{read_json, string_arg};
use js::CallContext;
#[cfg(feature = "js-api")]
use js::{error_result, object, set};
use options::Config;

/// `o[key] = v` for the JSON the tools answer with: one copy of the map insert, not one per key.
#[inline(never)]
fn put(o: &mut serde_json::Map<String, serde_json::Value>, key: &str, v: serde_json::Value) {
    o.insert(key.to_owned(), v);
}

/// A JSON object of `pairs` (what `json!` builds, without serializing each value again).
fn json_object(pairs: &mut [(&str, serde_json::Value)]) -> serde_json::Value {
    let mut o = serde_json::Map::new();
    for (k, v) in pairs {
        put(&mut o, k, std::mem::take(v));
    }
    serde_json::Value::Object(o)
}

#[derive(Clone, Copy)]
enum Kind {
    Describe,
    Fill,
    Submit,
    Navigate,
    #[cfg(feature = "page-reading")]
    Table,
    #[cfg(feature = "page-reading")]
    Highlight,
    #[cfg(feature = "page-reading")]
    Click,
    #[cfg(feature = "page-reading")]
    Page,
}

// The parameter schemas as JSON text (parsed by the browser): far smaller in the .wasm than
// building them with `json!`. The form tools' "form" property is removed when the app pins a form.
const DESCRIBE_SCHEMA: &str = r#"{"type":"object","properties":{"form":{"type":"string","description":"The form: its ref as describe_form reports it (its id, name or \"form N\"). Leave out to describe every form in scope."}}}"#;
const FILL_SCHEMA: &str = r##"{"type":"object","properties":{"form":{"type":"string","description":"The form: its ref as describe_form reports it (its id, name or \"form N\"). Needed only when the page has several forms."},"fields":{"type":"object","description":"Each field's ref, label, name or id (as describe_form reports them) mapped to its value: text for text, number, date (YYYY-MM-DD), time (HH:MM) and color (#rrggbb) fields; true or false for a checkbox; an option's value or label for a radio group or a select; an array of them for a multiple select or a checkbox group.","additionalProperties":{"type":["string","number","boolean","array","object"]}}},"required":["fields"]}"##;
const SUBMIT_SCHEMA: &str = r#"{"type":"object","properties":{"form":{"type":"string","description":"The form: its ref as describe_form reports it (its id, name or \"form N\"). Needed only when the page has several forms."},"button":{"type":"string","description":"The submit button's label, name or id; default: the form's first submit button."}}}"#;
const NAVIGATE_SCHEMA: &str = r#"{"type":"object","properties":{"url":{"type":"string","description":"A path of this app such as /orders/42, or a full http(s) URL of this site."}},"required":["url"]}"#;
#[cfg(feature = "page-reading")]
const TABLE_SCHEMA: &str = r#"{"type":"object","properties":{"table":{"type":"string","description":"The table: its ref (as an earlier answer gave it), its caption, or \"table N\". Needed only when the page shows several tables."},"from":{"type":"integer","minimum":1,"description":"The first row to read (1 is the first row under the headers); default 1."},"count":{"type":"integer","minimum":1,"maximum":100,"description":"How many rows to read; default 20."}}}"#;
#[cfg(feature = "page-reading")]
const PAGE_SCHEMA: &str = r#"{"type":"object","properties":{"within":{"type":"string","description":"A ref from an earlier answer (a form, list, dialog, table...): read only what it holds."},"query":{"type":"string","description":"Keep only the lines that contain this text (case-insensitive)."}}}"#;
#[cfg(feature = "page-reading")]
const CLICK_SCHEMA: &str = r#"{"type":"object","properties":{"ref":{"type":"string","description":"The button, link, tab or menu item to press: its ref as read_table gave it (a row's controls)."}},"required":["ref"]}"#;
#[cfg(feature = "page-reading")]
const HIGHLIGHT_SCHEMA: &str = r#"{"type":"object","properties":{"ref":{"type":"string","description":"The element to show the user: a ref such as \"e4\" that read_table gave (a row or a table)."},"clear":{"type":"boolean","description":"true to take the highlight away (without ref)."}}}"#;

fn schema_text(kind: Kind) -> &'static str {
    match kind {
        Kind::Describe => DESCRIBE_SCHEMA,
        Kind::Fill => FILL_SCHEMA,
        Kind::Submit => SUBMIT_SCHEMA,
        Kind::Navigate => NAVIGATE_SCHEMA,
        #[cfg(feature = "page-reading")]
        Kind::Table => TABLE_SCHEMA,
        #[cfg(feature = "page-reading")]
        Kind::Highlight => HIGHLIGHT_SCHEMA,
        #[cfg(feature = "page-reading")]
        Kind::Click => CLICK_SCHEMA,
        #[cfg(feature = "page-reading")]
        Kind::Page => PAGE_SCHEMA,
    }
}

/// A page tool's definition for the Rust API: what the JS factories set on their objects.
struct Parts {
    name: String,
    description: String,
    parameters: serde_json::Value,
    timeout_ms: Option<u64>,
    max_calls_per_run: Option<u32>,
    annotations: Option<String>,
}

impl Parts {
    fn of(kind: Kind, config: &Config) -> Parts {
        let mut parameters = client_tools_core::json::parse(schema_text(kind)).unwrap_or_default();
        if config.form.is_some() {
            if let Some(serde_json::Value::Object(p)) = parameters.get_mut("properties") {
                p.remove("form");
            }
        }
        let count = |v: &JsValue| v.as_f64().map(|n| n as u64);
        Parts {
            name: config.name.clone(),
            description: (config.description.clone())
                .unwrap_or_else(|| default_description(kind).into()),
            parameters,
            timeout_ms: count(&config.timeout_ms),
            max_calls_per_run: count(&config.max_calls_per_run)
                .map(|n| n.min(u32::MAX as u64) as u32),
            annotations: annotations(kind).map(str::to_owned),
        }
    }
}

#[cfg(feature = "js-api")]
fn parameters(kind: Kind, config: &Config) -> JsValue {
    let schema = js::json::parse_json(schema_text(kind));
    if config.form.is_some() {
        js::delete(&js::get(&schema, "properties"), "form");
    }
    schema
}

/// The WebMCP annotations of each page tool (`exposeToWebMCP` passes them to `registerTool`):
/// the form tools answer with text taken from the page (labels, options, messages), which is
/// the page's, not the app's (`untrustedContentHint`); describing a form changes nothing
/// (`readOnlyHint`).
fn annotations(kind: Kind) -> Option<&'static str> {
    match kind {
        Kind::Describe => Some(r#"{"readOnlyHint":true,"untrustedContentHint":true}"#),
        #[cfg(feature = "page-reading")]
        Kind::Table | Kind::Page => Some(r#"{"readOnlyHint":true,"untrustedContentHint":true}"#),
        Kind::Fill | Kind::Submit => Some(r#"{"untrustedContentHint":true}"#),
        #[cfg(feature = "page-reading")]
        Kind::Click => Some(r#"{"untrustedContentHint":true}"#),
        #[cfg(feature = "page-reading")]
        Kind::Highlight => Some(r#"{"readOnlyHint":true}"#),
        Kind::Navigate => None,
    }
}

fn default_description(kind: Kind) -> &'static str {
    match kind {
        Kind::Describe => "Read a form on this page: each field's label, name, type, constraints, options, current value and validity, and the submit buttons. Secrets (passwords, card data, one-time codes, hidden fields) are redacted.",
        Kind::Fill => "Fill fields of a form on this page as a person would. Reports per field what was set, what the page changed it to, and what was refused and why. Nothing is submitted.",
        Kind::Submit => "Submit a form on this page, as clicking its submit button does. If a field is invalid nothing is sent, and the result lists each invalid field with the reason.",
        Kind::Navigate => "Open another page of this app by its path (for example /orders/42) or its full URL.",
        #[cfg(feature = "page-reading")]
        Kind::Table => "Read a table on this page as the user sees it: its column headers and sort state, and its rows (a page at a time), each with a ref that highlight takes.",
        #[cfg(feature = "page-reading")]
        Kind::Page => "Read what the user sees on this page as an outline: headings, text, links, buttons, fields (never their values) and tables, each control with a ref that click, highlight and read_table take.",
        #[cfg(feature = "page-reading")]
        Kind::Click => "Press a button, link, tab or menu item on this page by its ref, as the user would. Hidden, covered and disabled elements are refused; a link that loads another page does so once this result is posted.",
        #[cfg(feature = "page-reading")]
        Kind::Highlight => "Show the user an element of this page (a table row, say) by its ref: it is scrolled into view and outlined until the user's next input.",
    }
}

async fn dispatch(
    kind: Kind,
    config: &Config,
    args: JsValue,
    ctx: CallContext,
) -> Result<JsValue, String> {
    let absent = args.is_undefined() || args.is_null();
    let object = args.is_object() && !crate::js::is_array(&args);
    // describe and submit need no arguments; fill and navigate cannot work without them.
    if !object && (!absent || needs_arguments(kind)) {
        return Err("the arguments must be a JSON object".into());
    }
    // Arguments the tool cannot read (cyclic, too deep, too long) are refused as a whole, and
    // each one it reads must have its type: nothing unreadable is taken as absent.
    #[cfg_attr(not(feature = "page-reading"), allow(unused_variables))]
    let json = if absent {
        serde_json::Value::Null
    } else {
        read_json(&args, "the arguments")?
    };
    let answer = match kind {
        Kind::Describe => describe::run(config, string_arg(&args, "form")?.as_deref()),
        Kind::Fill => fill::run(config, &args, &ctx).await,
        Kind::Submit => {
            let form = string_arg(&args, "form")?;
            let button = string_arg(&args, "button")?;
            submit::run(config, form.as_deref(), button.as_deref(), &ctx).await
        }
        Kind::Navigate => navigate::run(config, string_arg(&args, "url")?.as_deref(), &ctx).await,
        #[cfg(feature = "page-reading")]
        Kind::Table => {
            let from = whole_arg(&json, "from", u64::MAX)?;
            let count = whole_arg(&json, "count", table::COUNT_MAX)?;
            table::run(config, string_arg(&args, "table")?.as_deref(), from, count)
        }
        #[cfg(feature = "page-reading")]
        Kind::Page => {
            let within = string_arg(&args, "within")?;
            page::run(
                config,
                within.as_deref(),
                string_arg(&args, "query")?.as_deref(),
            )
        }
        #[cfg(feature = "page-reading")]
        Kind::Click => click::run(config, string_arg(&args, "ref")?.as_deref(), &ctx).await,
        #[cfg(feature = "page-reading")]
        Kind::Highlight => {
            let clear = match json.get("clear") {
                None | Some(serde_json::Value::Null) => false,
                Some(serde_json::Value::Bool(b)) => *b,
                Some(_) => return Err("clear must be true or false".into()),
            };
            highlight::run(config, string_arg(&args, "ref")?.as_deref(), clear).await
        }
    };
    // A refusal may quote the page (an option's label, a field's): shown as answers are.
    answer.map_err(|e| client_tools_core::text::show_invisible(&e).into_owned())
}

#[cfg(feature = "page-reading")]
/// The whole-number argument `key` (1 to `max`) of the arguments read as JSON: `None` when
/// absent or `null`, refused when it is anything else.
fn whole_arg(json: &serde_json::Value, key: &str, max: u64) -> Result<Option<u64>, String> {
    match json.get(key) {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(v) => match v.as_u64() {
            Some(n) if (1..=max).contains(&n) => Ok(Some(n)),
            _ if max == u64::MAX => Err(format!("{key} must be a whole number of at least 1")),
            _ => Err(format!("{key} must be a whole number from 1 to {max}")),
        },
    }
}

/// Whether `kind` cannot work without arguments (describe and submit need none).
fn needs_arguments(kind: Kind) -> bool {
    match kind {
        Kind::Fill | Kind::Navigate => true,
        #[cfg(feature = "page-reading")]
        Kind::Highlight | Kind::Click => true,
        _ => false,
    }
}

/// Builds the tool definition object around a handler closure that owns the config.
#[cfg(feature = "js-api")]
fn make(
    kind: Kind,
    options: Option<js_sys::Object>,
    default_name: &str,
) -> Result<JsValue, JsValue> {
    let options: JsValue = options.map(Into::into).unwrap_or(JsValue::UNDEFINED);
    let config = Config::read(&options, default_name).map_err(|e| crate::js::invalid(&e))?;
    let tool = object();
    set(&tool, "name", &config.name.clone().into());
    let description = config
        .description
        .clone()
        .unwrap_or_else(|| default_description(kind).into());
    set(&tool, "description", &description.into());
    set(&tool, "parameters", &parameters(kind, &config));
    if let Some(text) = annotations(kind) {
        set(&tool, "annotations", &js::json::parse_json(text));
    }
    for (key, v) in [
        ("timeoutMs", &config.timeout_ms),
        ("maxCallsPerRun", &config.max_calls_per_run),
    ] {
        if !v.is_undefined() {
            set(&tool, key, v);
        }
    }
    let config = Rc::new(config);
    let handler = Closure::<js::Callback>::new(move |args: JsValue, ctx: JsValue| -> JsValue {
        let config = config.clone();
        crate::js::promise::from_future(Box::pin(async move {
            let done = dispatch(kind, &config, args, CallContext::new(ctx)).await;
            Ok(done.unwrap_or_else(|why| error_result(&why)))
        }))
        .into()
    });
    set(&tool, "handler", &handler.into_js_value());
    Ok(tool)
}

/// A tool that describes a form (labels, types, constraints, options, values, validity and
/// submit buttons), with secrets redacted. Throws if an option is malformed.
// Typed in PAGE_TOOL_TYPES, where `options` can be optional.
#[cfg(feature = "js-api")]
#[wasm_bindgen(js_name = describeFormTool, skip_typescript)]
pub fn describe_form_tool(options: Option<js_sys::Object>) -> Result<JsValue, JsValue> {
    make(Kind::Describe, options, "describe_form")
}

/// A tool that fills a form's fields by label, name or id, so the app's state follows, and
/// reports per field what was set, changed or refused. Throws if an option is malformed.
// Typed in PAGE_TOOL_TYPES, where `options` can be optional.
#[cfg(feature = "js-api")]
#[wasm_bindgen(js_name = fillFormTool, skip_typescript)]
pub fn fill_form_tool(options: Option<js_sys::Object>) -> Result<JsValue, JsValue> {
    make(Kind::Fill, options, "fill_form")
}

/// A tool that submits a valid form with `requestSubmit` after `confirm`, and reports whether
/// the app handled it or a page load follows. Throws if an option is malformed.
// Typed in PAGE_TOOL_TYPES, where `options` can be optional.
#[cfg(feature = "js-api")]
#[wasm_bindgen(js_name = submitFormTool, skip_typescript)]
pub fn submit_form_tool(options: Option<js_sys::Object>) -> Result<JsValue, JsValue> {
    make(Kind::Submit, options, "submit_form")
}

/// A tool that navigates to an app route (router, or History API) or, for allowed sites, loads
/// the page after the result is posted. Throws if an option is malformed.
// Typed in PAGE_TOOL_TYPES, where `options` can be optional.
#[cfg(feature = "js-api")]
#[wasm_bindgen(js_name = navigateTool, skip_typescript)]
pub fn navigate_tool(options: Option<js_sys::Object>) -> Result<JsValue, JsValue> {
    make(Kind::Navigate, options, "navigate")
}

/// A tool that reads a table as a person sees it: column headers, sort state and a page of
/// rows, each with a ref. Throws if an option is malformed.
// Typed in PAGE_TOOL_TYPES, where `options` can be optional.
#[cfg(all(feature = "js-api", feature = "page-reading"))]
#[wasm_bindgen(js_name = readTableTool, skip_typescript)]
pub fn read_table_tool(options: Option<js_sys::Object>) -> Result<JsValue, JsValue> {
    make(Kind::Table, options, "read_table")
}

/// A tool that scrolls an element (by the ref another tool gave) into view and outlines it, or
/// has the app's `highlight` hook mark it. Throws if an option is malformed.
// Typed in PAGE_TOOL_TYPES, where `options` can be optional.
#[cfg(all(feature = "js-api", feature = "page-reading"))]
#[wasm_bindgen(js_name = highlightTool, skip_typescript)]
pub fn highlight_tool(options: Option<js_sys::Object>) -> Result<JsValue, JsValue> {
    make(Kind::Highlight, options, "highlight")
}

/// A tool that presses a visible, enabled button, link, tab or menu item by its ref (a submit
/// button as submit_form does, a link by navigate's rules). Throws if an option is malformed.
// Typed in PAGE_TOOL_TYPES, where `options` can be optional.
#[cfg(all(feature = "js-api", feature = "page-reading"))]
#[wasm_bindgen(js_name = clickTool, skip_typescript)]
pub fn click_tool(options: Option<js_sys::Object>) -> Result<JsValue, JsValue> {
    make(Kind::Click, options, "click")
}

/// A tool that reads what a person sees inside the root as an outline of roles, names and
/// states, with refs the other tools take. Throws if an option is malformed.
// Typed in PAGE_TOOL_TYPES, where `options` can be optional.
#[cfg(all(feature = "js-api", feature = "page-reading"))]
#[wasm_bindgen(js_name = readPageTool, skip_typescript)]
pub fn read_page_tool(options: Option<js_sys::Object>) -> Result<JsValue, JsValue> {
    make(Kind::Page, options, "read_page")
}
