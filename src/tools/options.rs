//! The options an app passes to a tool factory, read once and checked when the tool is made:
//! a mistake in them is the developer's and throws at once, not at the agent's first call.

use super::js::{get, string_prop};
use client_tools_core::quote::Quoted;
use js_sys::Function;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, HtmlFormElement};

/// Where a form tool looks for its form.
pub(crate) enum FormChoice {
    /// The app handed over the element.
    Element(HtmlFormElement),
    /// The app gave a selector, resolved inside the root at each call (SPAs render late).
    Selector(String),
}

/// One of the reading tools' roots as the app gave it.
#[cfg(feature = "page-reading")]
pub(crate) enum RootChoice {
    Element(Element),
    /// A CSS selector (the app's: trusted), run on the document at each call: every element it
    /// matches then is a root (a modal rendered in a portal comes and goes).
    Selector(String),
}

/// Everything a tool keeps from its options.
pub(crate) struct Config {
    pub name: String,
    pub description: Option<String>,
    pub timeout_ms: JsValue,
    pub max_calls_per_run: JsValue,
    /// The element the form tools may see into; `None` is the document's body.
    pub root: Option<Element>,
    /// The reading tools' roots (their `root`: an element, a selector or a list of them);
    /// empty: the document's body.
    #[cfg(feature = "page-reading")]
    pub roots: Vec<RootChoice>,
    pub form: Option<FormChoice>,
    pub confirm: Option<Function>,
    pub allow_sensitive: bool,
    pub allow_files: bool,
    pub allow_hidden: bool,
    /// `showActionPath`: the form tools tell a form's destination with its path (never its
    /// query or fragment), not only as "this page", "this site" or an origin.
    pub show_action_path: bool,
    /// The app's selectors for more fields to treat as secrets (`sensitive`).
    pub sensitive: Vec<String>,
    /// The app's selectors of what `click` may press (`clickable`); empty: every button,
    /// link, tab or menu item.
    #[cfg(feature = "page-reading")]
    pub clickable: Vec<String>,
    /// Origins (`https://host:port`) besides the page's own that navigate and submit may reach.
    pub allow_origins: Vec<String>,
    pub router: Option<Function>,
    /// `highlight`: the app's own way to mark an element (`highlight`'s), called with the
    /// element, and with `null` to clear.
    #[cfg(feature = "page-reading")]
    pub highlight: Option<Function>,
    /// `mode: "document"`: same-origin navigation loads a new document (after the result).
    pub document_mode: bool,
}

/// `options[key]` unless absent (`undefined` or `null`).
fn opt(options: &JsValue, key: &str) -> Option<JsValue> {
    Some(get(options, key)).filter(|v| !v.is_undefined() && !v.is_null())
}

/// Why `options[key]` is refused: it is not `what`.
fn not_a(key: &str, what: &str) -> String {
    format!("options.{key} must be {what}")
}

fn opt_string(options: &JsValue, key: &str) -> Result<Option<String>, String> {
    match opt(options, key) {
        None => Ok(None),
        Some(v) => v
            .as_string()
            .map(Some)
            .ok_or_else(|| not_a(key, "a string")),
    }
}

fn opt_bool(options: &JsValue, key: &str) -> Result<bool, String> {
    match opt(options, key) {
        None => Ok(false),
        Some(v) => v.as_bool().ok_or_else(|| not_a(key, "true or false")),
    }
}

fn opt_function(options: &JsValue, key: &str) -> Result<Option<Function>, String> {
    match opt(options, key) {
        None => Ok(None),
        Some(v) if v.is_function() => Ok(Some(v.unchecked_into())),
        Some(_) => Err(not_a(key, "a function")),
    }
}

fn opt_count(options: &JsValue, key: &str) -> Result<JsValue, String> {
    let v = get(options, key);
    if v.is_undefined() {
        return Ok(v);
    }
    match v.as_f64() {
        Some(n) if n.is_finite() && n > 0.0 && n.fract() == 0.0 => Ok(v),
        _ => Err(not_a(key, "a positive whole number")),
    }
}

/// The origin of an allowlist entry, which must be an http(s) URL.
fn origin_of(entry: &str) -> Option<String> {
    let url = super::url::parse(entry, None)?;
    let scheme = string_prop(&url, "protocol");
    (scheme == "http:" || scheme == "https:").then(|| string_prop(&url, "origin"))
}

/// `options[key]` (`sensitive`, `clickable`): an array of CSS selectors, each checked now so a
/// typo throws at once.
fn selectors(options: &JsValue, key: &str) -> Result<Vec<String>, String> {
    let list = get(options, key);
    if list.is_undefined() || list.is_null() {
        return Ok(Vec::new());
    }
    let shape = format!("options.{key} must be an array of CSS selectors");
    if !crate::js::is_array(&list) {
        return Err(shape);
    }
    let div = JsValue::from_str("div");
    let probe = super::js::proto_call(
        "Document",
        "createElement",
        super::js::document()?.as_ref(),
        &[&div],
    )?;
    let mut out = Vec::new();
    let list = crate::js::to_array(&list)
        .map_err(|e| format!("{shape}; reading it threw: {}", crate::js::error_text(&e)))?;
    for (i, entry) in list.iter().enumerate() {
        let sel = entry
            .as_string()
            .ok_or_else(|| format!("{shape}; [{i}] is not a string"))?;
        if super::dom::matches(probe.unchecked_ref(), &sel).is_err() {
            return Err(format!(
                "options.{key}[{i}]: {} is not a valid CSS selector",
                Quoted(&sel)
            ));
        }
        out.push(sel);
    }
    Ok(out)
}

/// The options of the form tools (the first four: every page tool's).
const FORM_KEYS: &[&str] = &[
    "name",
    "description",
    "timeoutMs",
    "maxCallsPerRun",
    "root",
    "form",
    "confirm",
    "sensitive",
    "allowSensitive",
    "allowFiles",
    "allowHidden",
    "allowOrigins",
    "showActionPath",
];
/// The options of the navigate tool (the first four: every page tool's).
const NAVIGATE_KEYS: &[&str] = &[
    "name",
    "description",
    "timeoutMs",
    "maxCallsPerRun",
    "allowOrigins",
    "router",
    "mode",
    "confirm",
];

/// The reading tools (their default names), whose `root` may be a selector or a list.
#[cfg(feature = "page-reading")]
const READING_TOOLS: &[&str] = &["read_table", "read_page", "highlight", "click"];

/// `options.root` of a reading tool: an element, a CSS selector, or a non-empty array of them.
/// Each selector is checked now, so a typo throws at once.
#[cfg(feature = "page-reading")]
fn read_roots(options: &JsValue) -> Result<Vec<RootChoice>, String> {
    let given = get(options, "root");
    if given.is_undefined() || given.is_null() {
        return Ok(Vec::new());
    }
    let many = crate::js::is_array(&given);
    let list = if many {
        let list = crate::js::to_array(&given)
            .map_err(|e| format!("options.root cannot be read: {}", crate::js::error_text(&e)))?;
        if list.length() == 0 {
            return Err("options.root is an empty list: give an element or a selector".into());
        }
        list.iter().collect()
    } else {
        vec![given]
    };
    let page: Element = super::js::proto_get(
        "Document",
        "documentElement",
        super::js::document()?.as_ref(),
    )
    .unchecked_into();
    let mut out = Vec::new();
    for (i, entry) in list.into_iter().enumerate() {
        let at = if many {
            format!("options.root[{i}]")
        } else {
            "options.root".to_owned()
        };
        if let Some(sel) = entry.as_string() {
            // `matches` throws on a selector that does not parse (and changes nothing).
            if super::dom::matches(&page, &sel).is_err() {
                return Err(format!(
                    "{at}: {} is not a valid CSS selector",
                    Quoted(&sel)
                ));
            }
            out.push(RootChoice::Selector(sel));
        } else {
            let el = super::dom::cast(entry, "Element")
                .ok_or_else(|| format!("{at} must be an Element or a CSS selector"))?;
            out.push(RootChoice::Element(el));
        }
    }
    Ok(out)
}

/// The options of read_table and read_page (the first four: every page tool's).
#[cfg(feature = "page-reading")]
const TABLE_KEYS: &[&str] = &["name", "description", "timeoutMs", "maxCallsPerRun", "root"];
/// The options of highlight (the first four: every page tool's).
#[cfg(feature = "page-reading")]
const HIGHLIGHT_KEYS: &[&str] = &[
    "name",
    "description",
    "timeoutMs",
    "maxCallsPerRun",
    "root",
    "highlight",
];
/// The options of click (the first four: every page tool's).
#[cfg(feature = "page-reading")]
const CLICK_KEYS: &[&str] = &[
    "name",
    "description",
    "timeoutMs",
    "maxCallsPerRun",
    "root",
    "confirm",
    "clickable",
    "allowOrigins",
    "sensitive",
    "showActionPath",
];

/// Refuses a key the tool does not know (a typo would otherwise be ignored in silence). The
/// default name tells the tools apart.
fn check_keys(options: &JsValue, default_name: &str) -> Result<(), String> {
    let known = match default_name {
        "navigate" => NAVIGATE_KEYS,
        #[cfg(feature = "page-reading")]
        "read_table" | "read_page" => TABLE_KEYS,
        #[cfg(feature = "page-reading")]
        "highlight" => HIGHLIGHT_KEYS,
        #[cfg(feature = "page-reading")]
        "click" => CLICK_KEYS,
        _ => FORM_KEYS,
    };
    crate::browser::keys::check(options, known, "options.")
}

impl Config {
    /// Reads `options` (an object or `undefined`); `default_name` names the tool when the app
    /// gives no `name`. Fails with a message naming the bad option.
    pub(crate) fn read(options: &JsValue, default_name: &str) -> Result<Config, String> {
        if !(options.is_undefined() || options.is_null() || options.is_object()) {
            return Err("options must be an object".into());
        }
        check_keys(options, default_name)?;
        let name = opt_string(options, "name")?.unwrap_or_else(|| default_name.into());
        crate::protocol::validate::tool_name("options.name", &name).map_err(|e| e.to_string())?;
        #[cfg(feature = "page-reading")]
        let reading = READING_TOOLS.contains(&default_name);
        let root = match get(options, "root") {
            v if v.is_undefined() || v.is_null() => None,
            #[cfg(feature = "page-reading")]
            _ if reading => None,
            v => Some(super::dom::cast(v, "Element").ok_or("options.root must be an Element")?),
        };
        let form = match get(options, "form") {
            v if v.is_undefined() || v.is_null() => None,
            v => match v.as_string() {
                Some(s) => Some(FormChoice::Selector(s)),
                None => Some(FormChoice::Element(
                    super::dom::cast(v, "HTMLFormElement")
                        .ok_or("options.form must be an HTMLFormElement or a selector string")?,
                )),
            },
        };
        let sensitive = selectors(options, "sensitive")?;
        let mut allow_origins = Vec::new();
        let list = get(options, "allowOrigins");
        if !list.is_undefined() && !list.is_null() {
            if !crate::js::is_array(&list) {
                return Err("options.allowOrigins must be an array of http(s) origins".into());
            }
            let list = crate::js::to_array(&list).map_err(|e| {
                format!(
                    "options.allowOrigins cannot be read: {}",
                    crate::js::error_text(&e)
                )
            })?;
            for (i, entry) in list.iter().enumerate() {
                let origin = entry.as_string().as_deref().and_then(origin_of).ok_or_else(|| {
                    format!("options.allowOrigins[{i}] is not an http(s) origin such as \"https://shop.example\"")
                })?;
                allow_origins.push(origin);
            }
        }
        let document_mode = match opt_string(options, "mode")?.as_deref() {
            None | Some("history") => false,
            Some("document") => true,
            Some(other) => {
                return Err(format!(
                    "options.mode: {}, expected \"history\" or \"document\"",
                    Quoted(other)
                ))
            }
        };
        Ok(Config {
            name,
            description: opt_string(options, "description")?,
            timeout_ms: opt_count(options, "timeoutMs")?,
            max_calls_per_run: opt_count(options, "maxCallsPerRun")?,
            root,
            #[cfg(feature = "page-reading")]
            roots: if reading {
                read_roots(options)?
            } else {
                Vec::new()
            },
            form,
            confirm: opt_function(options, "confirm")?,
            allow_sensitive: opt_bool(options, "allowSensitive")?,
            allow_files: opt_bool(options, "allowFiles")?,
            allow_hidden: opt_bool(options, "allowHidden")?,
            show_action_path: opt_bool(options, "showActionPath")?,
            sensitive,
            #[cfg(feature = "page-reading")]
            clickable: selectors(options, "clickable")?,
            allow_origins,
            router: opt_function(options, "router")?,
            #[cfg(feature = "page-reading")]
            highlight: opt_function(options, "highlight")?,
            document_mode,
        })
    }
}
