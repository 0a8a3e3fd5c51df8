//! `client_tools::webmcp`, the Rust face of the JS `exposeToWebMCP`: a client's or a registry's
//! tools offered to the browser's own agent through WebMCP, by the same exposure
//! (`crate::exposure`: the tool lists and the calls through the call runtime; its registrations
//! are JS, src/snippets.js).

use super::{Client, Registry};
use crate::browser::guards::Abort;
use client_tools_core::api::{Error, ErrorKind};
use wasm_bindgen::{JsCast, JsValue};

/// What [`expose`] offers: a client's tools, followed as they change, or a registry's.
pub enum Source<'a> {
    /// The client's tools on offer (those of `set_tools` and its scopes), followed: each
    /// change is registered in place of the last, and `set_tools` / a scope's `update`
    /// completes once WebMCP holds the new list too.
    Client(&'a Client),
    /// The registry's tools, as they are now.
    Registry(&'a Registry),
}

impl<'a> From<&'a Client> for Source<'a> {
    fn from(client: &'a Client) -> Source<'a> {
        Source::Client(client)
    }
}

impl<'a> From<&'a Registry> for Source<'a> {
    fn from(registry: &'a Registry) -> Source<'a> {
        Source::Registry(registry)
    }
}

/// The options of [`expose`].
#[derive(Clone, Debug, Default)]
pub struct ExposeOptions {
    /// Put before every tool's name as WebMCP lists it (`"shop_"`), for a page that exposes
    /// tools from more than one source. The name with it must still be a valid tool name.
    pub prefix: String,
}

/// Tools registered with WebMCP: they stay registered until this is dropped (then each is
/// unregistered; a call running goes on and is answered).
#[must_use = "dropping an Exposure unregisters its tools"]
pub struct Exposure {
    registered: Vec<String>,
    /// Aborted on drop: the exposure's signal, which stops it.
    _stop: Abort,
}

impl Exposure {
    /// The names registered, with the prefix, as the tools were when the registration
    /// completed (a followed client's later lists replace them with the browser).
    pub fn registered(&self) -> &[String] {
        &self.registered
    }
}

/// Offers `source`'s tools to the browser's own agent through WebMCP
/// (`document.modelContext.registerTool`, each tool its own registration), with the same call
/// runtime as a Sessions call (arguments checked against the schema, the tool's timeout,
/// `max_calls_per_run` per tool list). Completes once every tool is registered; `None` where
/// the browser has no WebMCP. Fails with [`ErrorKind::InvalidOption`] for a client with no
/// tools to follow (it left) or a name the prefix breaks, and [`ErrorKind::Rejected`] naming
/// a tool the browser refused (then nothing stays registered).
///
/// ```no_run
/// use client_tools::webmcp::{self, ExposeOptions};
/// use client_tools::Client;
///
/// async fn offer(client: &Client) -> Result<Option<webmcp::Exposure>, client_tools::Error> {
///     // The page's tools, as its routes change them, to the browser's agent too.
///     let exposure = webmcp::expose(client, ExposeOptions::default()).await?;
///     if let Some(exposure) = &exposure {
///         let _names = exposure.registered();
///     }
///     Ok(exposure) // keep it: dropped, the tools are unregistered
/// }
/// ```
pub async fn expose<'a>(
    source: impl Into<Source<'a>>,
    options: ExposeOptions,
) -> Result<Option<Exposure>, Error> {
    let Some(model_context) = crate::exposure::model_context() else {
        return Ok(None);
    };
    let source = match source.into() {
        Source::Client(client) => {
            crate::exposure::Source::Client(crate::exposure::follow(&client.shared))
        }
        Source::Registry(registry) => crate::exposure::Source::Tools(registry.tools_copy()),
    };
    let stop = Abort::new("the exposure was dropped")
        .ok_or_else(|| Error::new(ErrorKind::Rejected, "this browser has no AbortController"))?;
    let registering = crate::exposure::expose(
        model_context.into(),
        source,
        options.prefix,
        stop.signal(),
        JsValue::from,
    )
    .map_err(rust_error)?;
    let Some(registering) = registering else {
        return Ok(None);
    };
    let names = registering.await.map_err(rust_error)?;
    let names: js_sys::Array = names.unchecked_into();
    Ok(Some(Exposure {
        registered: names.iter().filter_map(|n| n.as_string()).collect(),
        _stop: stop,
    }))
}

/// The exposure's error (a JS `Error` with the SDK's `code`, as its JS face rejects with) as
/// the Rust API's.
fn rust_error(e: JsValue) -> Error {
    let kind = match crate::js::string_prop(&e, "code").as_str() {
        "rejected" => ErrorKind::Rejected,
        _ => ErrorKind::InvalidOption,
    };
    Error::new(kind, crate::js::string_prop(&e, "message"))
}
