//! The page tools for Rust callers: [`describe_form`], [`fill_form`], [`submit_form`],
//! [`navigate`], [`read_page`], [`read_table`], [`highlight`] and [`click`], each a function of an options struct
//! ([`FormOptions`], [`NavigateOptions`], [`PageOptions`])
//! returning a [`Tool`]. The options are checked by the same reader as the JS factories'
//! (`describeFormTool` and the others), so a Rust app and a JS app get the same rules and
//! messages; the tools run the same code.

use super::{dispatch, Kind};
use crate::api::shell::Handler;
use crate::{Error, ErrorKind, Returned, Tool};
use std::future::Future;
use std::rc::Rc;
use std::time::Duration;
use wasm_bindgen::prelude::*;
use web_sys::{Element, HtmlFormElement};

/// What a page tool hands to a `confirm` hook before it acts.
pub struct PageAction(JsValue);

impl PageAction {
    /// `"submit"`, `"navigate"` or `"click"`.
    pub fn kind(&self) -> String {
        crate::js::string_prop(&self.0, "kind")
    }

    /// One line for a person: `submit a form with "Pay" to https://shop.example/pay (POST)`.
    pub fn summary(&self) -> String {
        crate::js::string_prop(&self.0, "summary")
    }

    /// Where the submission or the navigation goes.
    pub fn url(&self) -> String {
        crate::js::string_prop(&self.0, "url")
    }
}

/// The form a form tool works on.
pub enum FormRef {
    /// The element itself.
    Element(HtmlFormElement),
    /// A CSS selector, resolved inside the root at each call (the app's own selector: trusted).
    Selector(String),
}

impl From<HtmlFormElement> for FormRef {
    fn from(form: HtmlFormElement) -> FormRef {
        FormRef::Element(form)
    }
}

impl From<&str> for FormRef {
    fn from(selector: &str) -> FormRef {
        FormRef::Selector(selector.to_owned())
    }
}

/// How the navigate tool changes the page without a router.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub enum NavigateMode {
    /// Push the path and fire `popstate` (the default).
    #[default]
    History,
    /// Load the page after the result is posted.
    Document,
}

/// The options every page tool takes, as a JS options object under construction.
#[derive(Clone)]
struct Common(JsValue);

impl Default for Common {
    fn default() -> Common {
        Common(crate::js::object())
    }
}

impl Common {
    fn set(&self, key: &str, v: JsValue) {
        crate::js::set(&self.0, key, &v);
    }

    fn strings(&self, key: &str, list: &[String]) {
        let items: Vec<JsValue> = list.iter().map(|s| JsValue::from_str(s)).collect();
        self.set(
            key,
            crate::js::array(&items.iter().collect::<Vec<_>>()).into(),
        );
    }
}

/// The app's async `confirm` hook as the JS function the tools call.
fn confirm_hook<F, Fut>(f: F) -> JsValue
where
    F: Fn(PageAction) -> Fut + 'static,
    Fut: Future<Output = bool> + 'static,
{
    let f = Rc::new(f);
    Closure::<crate::js::Callback>::new(move |action: JsValue, _| {
        let f = f.clone();
        crate::js::promise::from_future(Box::pin(async move {
            Ok(JsValue::from_bool(f(PageAction(action)).await))
        }))
        .into()
    })
    .into_js_value()
}

/// Options of [`describe_form`], [`fill_form`] and [`submit_form`]. The default sees the whole
/// page (`document.body`), finds the form by the ref the model names, and refuses secrets,
/// files and hidden fields.
#[derive(Clone, Default)]
pub struct FormOptions(Common);

/// Options of [`navigate`]. The default opens same-origin paths with the History API.
#[derive(Clone, Default)]
pub struct NavigateOptions(Common);

#[cfg(feature = "page-reading")]
/// Options of [`read_page`], [`read_table`], [`highlight`] and [`click`]. The default sees the whole page
/// (`document.body`) and outlines with the SDK's own drawing.
#[derive(Clone, Default)]
pub struct PageOptions(Common);

macro_rules! common_options {
    ($t:ty) => {
        impl $t {
            /// The tool's name (1 to 64 of `A-Z a-z 0-9 _ -`); each tool has a default.
            pub fn name(self, name: &str) -> Self {
                self.0.set("name", name.into());
                self
            }

            /// What the model reads about the tool; each tool has a default.
            pub fn description(self, description: &str) -> Self {
                self.0.set("description", description.into());
                self
            }

            /// The local deadline of one call (default 30 s).
            pub fn timeout(self, timeout: Duration) -> Self {
                self.0.set("timeoutMs", (timeout.as_millis() as f64).into());
                self
            }

            /// At most this many calls per agent run.
            pub fn max_calls_per_run(self, max: u32) -> Self {
                self.0.set("maxCallsPerRun", max.into());
                self
            }

            /// Origins besides the page's own the tool may reach (`https://pay.example`).
            pub fn allow_origins(self, origins: &[String]) -> Self {
                self.0.strings("allowOrigins", origins);
                self
            }

            /// Asked before the tool submits or navigates; `false` stops it and the agent is
            /// told so.
            pub fn confirm<F, Fut>(self, f: F) -> Self
            where
                F: Fn(PageAction) -> Fut + 'static,
                Fut: Future<Output = bool> + 'static,
            {
                self.0.set("confirm", confirm_hook(f));
                self
            }
        }
    };
}
common_options!(FormOptions);
common_options!(NavigateOptions);
#[cfg(feature = "page-reading")]
common_options!(PageOptions);

#[cfg(feature = "page-reading")]
/// One root of a reading tool: an element, or a CSS selector (the app's own) run on the
/// document at each call, every element it matches being a root.
pub enum PageRoot {
    /// The element itself.
    Element(Element),
    /// A CSS selector; checked when the tool is made, resolved at each call.
    Selector(String),
}

#[cfg(feature = "page-reading")]
impl From<Element> for PageRoot {
    fn from(el: Element) -> PageRoot {
        PageRoot::Element(el)
    }
}

#[cfg(feature = "page-reading")]
impl From<&str> for PageRoot {
    fn from(selector: &str) -> PageRoot {
        PageRoot::Selector(selector.to_owned())
    }
}

#[cfg(feature = "page-reading")]
impl From<String> for PageRoot {
    fn from(selector: String) -> PageRoot {
        PageRoot::Selector(selector)
    }
}

#[cfg(feature = "page-reading")]
impl From<PageRoot> for JsValue {
    fn from(root: PageRoot) -> JsValue {
        match root {
            PageRoot::Element(el) => el.into(),
            PageRoot::Selector(s) => JsValue::from_str(&s),
        }
    }
}

#[cfg(feature = "page-reading")]
impl PageOptions {
    /// Where the tool may see (default: `document.body`): an element, or a CSS selector run on
    /// the document at each call (every element it matches is a root). A selector that does
    /// not parse fails when the tool is made; one matching nothing at a call is answered
    /// `no element matching "…" is on the page now`.
    pub fn root(self, root: impl Into<PageRoot>) -> Self {
        self.0.set("root", root.into().into());
        self
    }

    /// Several roots (the app's main element and the portal its modals render in, say): the
    /// tool sees inside each, reads them in document order, and hands out and takes refs only
    /// inside them. A selector matching nothing at a call adds no root; a call that finds no
    /// root at all is refused saying so.
    ///
    /// ```no_run
    /// use client_tools::tools::{read_page, PageOptions, PageRoot};
    /// # fn tool(main: web_sys::Element) -> Result<client_tools::Tool, client_tools::Error> {
    /// // The app's main element, and its modals, which render in a portal outside it.
    /// read_page(PageOptions::default().roots([PageRoot::from(main), "[role=dialog]".into()]))
    /// # }
    /// ```
    pub fn roots<R: Into<PageRoot>>(self, roots: impl IntoIterator<Item = R>) -> Self {
        let items: Vec<JsValue> = roots.into_iter().map(|r| r.into().into()).collect();
        self.0.set(
            "root",
            crate::js::array(&items.iter().collect::<Vec<_>>()).into(),
        );
        self
    }

    /// [`click`] presses only elements matching one of these CSS selectors (the app's own).
    pub fn clickable(self, selectors: &[String]) -> Self {
        self.0.strings("clickable", selectors);
        self
    }

    /// CSS selectors of more fields to treat as secrets when [`click`] submits a form.
    pub fn sensitive(self, selectors: &[String]) -> Self {
        self.0.strings("sensitive", selectors);
        self
    }

    /// [`highlight`] marks the element the app's way: `f` gets the element to mark, and `None`
    /// when the model clears the highlight (the SDK then draws nothing).
    pub fn highlight<F: Fn(Option<Element>) + 'static>(self, f: F) -> Self {
        let hook = Closure::<crate::js::Callback>::new(move |el: JsValue, _| {
            f(el.dyn_into::<Element>().ok());
            JsValue::UNDEFINED
        });
        self.0.set("highlight", hook.into_js_value());
        self
    }
}

impl FormOptions {
    /// The element the tool may see into (default: `document.body`).
    pub fn root(self, root: Element) -> Self {
        self.0.set("root", root.into());
        self
    }

    /// The form to work on: the element, or a selector resolved inside the root at each call.
    /// Without it the model names a form by its ref when the root holds several.
    pub fn form(self, form: impl Into<FormRef>) -> Self {
        let v = match form.into() {
            FormRef::Element(e) => e.into(),
            FormRef::Selector(s) => JsValue::from_str(&s),
        };
        self.0.set("form", v);
        self
    }

    /// CSS selectors of more fields to treat as secrets, like passwords.
    pub fn sensitive(self, selectors: &[String]) -> Self {
        self.0.strings("sensitive", selectors);
        self
    }

    /// Let the agent fill passwords, card data, one-time codes and `sensitive` fields.
    pub fn allow_sensitive(self, allow: bool) -> Self {
        self.0.set("allowSensitive", allow.into());
        self
    }

    /// Let the agent put text files into file inputs.
    pub fn allow_files(self, allow: bool) -> Self {
        self.0.set("allowFiles", allow.into());
        self
    }

    /// Let the agent set hidden inputs.
    pub fn allow_hidden(self, allow: bool) -> Self {
        self.0.set("allowHidden", allow.into());
        self
    }

    /// Tell the agent a form's destination with its path (never its query or fragment) rather
    /// than only as "this page", "this site" or another origin.
    pub fn show_action_path(self, show: bool) -> Self {
        self.0.set("showActionPath", show.into());
        self
    }
}

impl NavigateOptions {
    /// The app's router, called with `/path?query#hash` for a same-origin URL and awaited, so
    /// that the tools it declares for the new screen are in place before the result.
    pub fn router<F, Fut>(self, f: F) -> Self
    where
        F: Fn(String) -> Fut + 'static,
        Fut: Future<Output = ()> + 'static,
    {
        let f = Rc::new(f);
        let hook = Closure::<crate::js::Callback>::new(move |path: JsValue, _| {
            let f = f.clone();
            let path = path.as_string().unwrap_or_default();
            crate::js::promise::from_future(Box::pin(async move {
                f(path).await;
                Ok(JsValue::UNDEFINED)
            }))
            .into()
        });
        self.0.set("router", hook.into_js_value());
        self
    }

    /// Without a router: [`NavigateMode::History`] (default) or [`NavigateMode::Document`].
    pub fn mode(self, mode: NavigateMode) -> Self {
        let mode = match mode {
            NavigateMode::History => "history",
            NavigateMode::Document => "document",
        };
        self.0.set("mode", mode.into());
        self
    }
}

#[cfg(feature = "page-reading")]
/// A tool that reads a table as a person sees it: its column headers and sort state, and a
/// page of rows (`from`, `count` <= 100), each with a ref [`highlight`] takes.
///
/// ```no_run
/// use client_tools::tools::{read_table, PageOptions};
/// let tool = read_table(PageOptions::default()).expect("valid options");
/// ```
pub fn read_table(options: PageOptions) -> Result<Tool, Error> {
    make(Kind::Table, &options.0 .0, "read_table")
}

#[cfg(feature = "page-reading")]
/// A tool that scrolls the element a ref names into view and outlines it until the user's
/// next input (or has the app's hook mark it), refusing stale refs and unseen elements.
///
/// ```no_run
/// use client_tools::tools::{highlight, PageOptions};
/// let tool = highlight(PageOptions::default()).expect("valid options");
/// ```
pub fn highlight(options: PageOptions) -> Result<Tool, Error> {
    make(Kind::Highlight, &options.0 .0, "highlight")
}

#[cfg(feature = "page-reading")]
/// A tool that presses a visible, enabled button, link, tab or menu item by the ref
/// [`read_table`] gave (a row's `controls`): a submit button as [`submit_form`] does, a link by
/// [`navigate`]'s origin rules (its page load after the result), anything else after `confirm`.
///
/// ```no_run
/// use client_tools::tools::{click, PageOptions};
/// let tool = click(PageOptions::default().clickable(&["#orders button".into()])).expect("valid options");
/// ```
pub fn click(options: PageOptions) -> Result<Tool, Error> {
    make(Kind::Click, &options.0 .0, "click")
}

#[cfg(feature = "page-reading")]
/// A tool that reads what a person sees inside the root as an outline (headings, text,
/// links, buttons, fields without their values, tables summarised), with refs [`click`],
/// [`highlight`] and [`read_table`] take.
///
/// ```no_run
/// use client_tools::tools::{read_page, PageOptions};
/// let tool = read_page(PageOptions::default()).expect("valid options");
/// ```
pub fn read_page(options: PageOptions) -> Result<Tool, Error> {
    make(Kind::Page, &options.0 .0, "read_page")
}

/// A page tool of `kind` from its options, checked as the JS factories check them.
fn make(kind: Kind, options: &JsValue, default_name: &str) -> Result<Tool, Error> {
    let config = super::options::Config::read(options, default_name)
        .map_err(|m| Error::new(ErrorKind::InvalidOption, m))?;
    let parts = super::Parts::of(kind, &config);
    let config = Rc::new(config);
    let handler: Handler = Rc::new(move |args, ctx| {
        let config = config.clone();
        Box::pin(async move {
            let text = client_tools_core::json::object_text(&args);
            let args = js_sys::JSON::parse(&text).unwrap_or_else(|_| crate::js::object());
            let js_ctx = ctx.js_object();
            let ctx = crate::js::CallContext::new(js_ctx.into());
            match dispatch(kind, &config, args, ctx).await {
                Ok(v) => crate::js::handler::returned_value(&v),
                Err(why) => Returned::Threw(why),
            }
        })
    });
    let mut tool = Tool::from_handler(parts.name, parts.description, handler);
    let def = &mut tool.parts_mut().def;
    def.spec.parameters = Some(parts.parameters);
    def.timeout_ms = parts.timeout_ms;
    def.max_calls_per_run = parts.max_calls_per_run;
    tool.parts_mut().annotations = parts.annotations;
    Ok(tool)
}

/// A tool that describes a form (labels, types, constraints, options, values, validity and
/// submit buttons), with secrets redacted. Fails naming a malformed option.
///
/// ```no_run
/// use client_tools::tools::{describe_form, FormOptions};
/// let tool = describe_form(FormOptions::default().form("#order-form")).expect("valid options");
/// ```
pub fn describe_form(options: FormOptions) -> Result<Tool, Error> {
    make(Kind::Describe, &options.0 .0, "describe_form")
}

/// A tool that fills a form's fields by label, name or id so the app's state follows (React,
/// Vue and Angular see the change), and reports per field what was set or refused.
///
/// ```no_run
/// use client_tools::tools::{fill_form, FormOptions};
/// let tool = fill_form(FormOptions::default().form("#order-form")).expect("valid options");
/// ```
pub fn fill_form(options: FormOptions) -> Result<Tool, Error> {
    make(Kind::Fill, &options.0 .0, "fill_form")
}

/// A tool that submits a valid form with `requestSubmit` after `confirm`, and reports whether
/// the app handled it or a page load follows (after the result is posted).
///
/// ```no_run
/// use client_tools::tools::{submit_form, FormOptions};
/// let tool = submit_form(FormOptions::default().form("#order-form").confirm(|action| async move {
///     web_sys::window().and_then(|w| w.confirm_with_message(&action.summary()).ok()).unwrap_or(false)
/// }))
/// .expect("valid options");
/// ```
pub fn submit_form(options: FormOptions) -> Result<Tool, Error> {
    make(Kind::Submit, &options.0 .0, "submit_form")
}

/// A tool that opens an app route (the router, or the History API) or, for allowed sites,
/// loads the page after the result is posted.
///
/// ```no_run
/// use client_tools::tools::{navigate, NavigateOptions};
/// let tool = navigate(NavigateOptions::default().router(|path| async move {
///     // the app's router: render the screen of `path` and set its tools
///     let _ = path;
/// }))
/// .expect("valid options");
/// ```
pub fn navigate(options: NavigateOptions) -> Result<Tool, Error> {
    make(Kind::Navigate, &options.0 .0, "navigate")
}
