//! The navigate tool: to an app route through the app's router (or the History API), or, for
//! another allowed site or `mode: "document"`, a page load that waits until the result is
//! posted.

use super::js::promise::call_hook;
use super::js::{
    call_method, error_result, error_text, get, object, ok_result, set, string_prop, CallContext,
};
use super::json_object;
use wasm_bindgen::JsValue;

use super::options::Config;
use super::url::{check_target, shown_path, Target};

/// Changes the route in place: `history.pushState`, then a `popstate` event so routers that
/// listen for it (and the app's own listener) render the new screen.
fn push_state(href: &str) -> Result<(), String> {
    let win = super::dom::window().ok_or("no window")?;
    let args = [
        &JsValue::NULL,
        &JsValue::from_str(""),
        &JsValue::from_str(href),
    ];
    call_method(&get(&win, "history"), "pushState", &args).map_err(|e| error_text(&e))?;
    let init = super::js::json::parse_json(r#"{"state":null}"#);
    super::dom::fire(&win, "PopStateEvent", "popstate", &init)
}

fn title() -> String {
    super::js::document()
        .map(|d| string_prop(&d, "title"))
        .unwrap_or_default()
}

/// Runs navigate: `input` (`args.url`) is a path of this app or a full http(s) URL.
pub(crate) async fn run(
    config: &Config,
    input: Option<&str>,
    ctx: &CallContext,
) -> Result<JsValue, String> {
    let Some(input) = input else {
        return Err("url is missing: pass a path such as \"/orders\"".into());
    };
    let (url, same_origin) = match check_target(input, &config.allow_origins) {
        Target::SameOrigin(u) => (u, true),
        Target::Allowed(u) => (u, false),
        Target::Refused(why) => {
            return Ok(error_result(&format!("Not navigating: the URL {why}.")))
        }
    };
    let href = string_prop(&url, "href");
    // The app's router gets the whole path; the model reads only what it wrote (`shown`).
    let path = format!(
        "{}{}{}",
        string_prop(&url, "pathname"),
        string_prop(&url, "search"),
        string_prop(&url, "hash")
    );
    let shown = shown_path(input, &url);
    let shown_href = format!("{}{shown}", string_prop(&url, "origin"));
    if path.starts_with("//") {
        // `/..//evil.example` normalises to the path `//evil.example`, which a router handing it
        // on to `location` would read as another site.
        return Ok(error_result(
            "Not navigating: the path starts with //, which could be read as another site.",
        ));
    }
    let in_place = same_origin && !config.document_mode;
    if let Some(confirm) = &config.confirm {
        let action = object();
        set(&action, "kind", &"navigate".into());
        set(&action, "url", &href.clone().into());
        set(&action, "crossDocument", &JsValue::from_bool(!in_place));
        let verb = if in_place { "open" } else { "load the page" };
        set(&action, "summary", &format!("{verb} {href}").into());
        match call_hook(confirm, &action).await {
            Ok(v) if v.is_truthy() => {}
            Ok(_) => {
                return Ok(error_result(&format!(
                    "The user declined the navigation to {shown_href}."
                )))
            }
            Err(e) => {
                return Ok(error_result(&format!(
                    "Not navigating: the confirm hook failed: {e}"
                )))
            }
        }
    }
    if ctx.aborted() {
        return Ok(error_result(
            "The call was cancelled or timed out: not navigating.",
        ));
    }
    if !in_place {
        let target = href.clone();
        let go = Box::new(move || {
            if let Some(w) = super::dom::window() {
                let _ = call_method(&get(&w, "location"), "assign", &[&target.into()]);
            }
        });
        if !ctx.after_result(go) {
            return Ok(error_result("Not navigating: a page load must wait for the result, and this call gives no way to run code after it."));
        }
        return Ok(ok_result(&json_object(&mut [
            ("navigated", false.into()),
            ("url", shown_href.into()),
            (
                "outcome",
                "the page will load this URL once this result is posted".into(),
            ),
        ])));
    }
    let via = if let Some(router) = &config.router {
        if let Err(e) = call_hook(router, &JsValue::from_str(&path)).await {
            return Ok(error_result(&format!(
                "The app's router failed to open {shown}: {e}"
            )));
        }
        "router"
    } else {
        push_state(&href)?;
        "history"
    };
    Ok(ok_result(&json_object(&mut [
        ("navigated", true.into()),
        ("path", shown.into()),
        ("via", via.into()),
        ("title", title().into()),
    ])))
}
