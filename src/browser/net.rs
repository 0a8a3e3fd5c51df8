//! `fetch` for the engine's requests and for the event stream. Works in a window and in a
//! worker: `fetch` is taken from the global scope, not from `window`.

use super::guards::{self, Abort};
use crate::engine::HttpRequest;
use crate::js::error_text;
use client_tools_core::time::Duration;
use js_sys::{Object, Promise, Reflect, Uint8Array};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortSignal, Headers, ReadableStreamDefaultReader, RequestInit, Response};

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = fetch)]
    fn global_fetch(input: &str, init: &RequestInit) -> Promise;
}

/// What a request came back with.
pub(crate) struct Answer {
    pub status: u16,
    pub body: String,
    pub retry_after: Option<Duration>,
}

fn init(
    method: &str,
    headers: &[(&'static str, String)],
    body: Option<&str>,
    keepalive: bool,
    signal: Option<&AbortSignal>,
) -> Result<RequestInit, JsValue> {
    let init = RequestInit::new();
    init.set_method(method);
    let h = Headers::new()?;
    for (name, value) in headers {
        h.append(name, value)?;
    }
    init.set_headers(&h);
    if let Some(body) = body {
        init.set_body(&JsValue::from_str(body));
    }
    if keepalive {
        // Not in web-sys' RequestInit yet; the page may be gone before the answer comes.
        crate::js::set(&init, "keepalive", &JsValue::TRUE);
    }
    init.set_signal(signal);
    Ok(init)
}

/// How long one request may take, its answer read whole, by default (`requestTimeoutMs`): as
/// the native worker's default. A request that takes longer is aborted and counts as a network
/// error, which the engine retries; without it, a server that never answers would hold one of
/// the page's few request slots (`sending`) for good.
pub(crate) const DEFAULT_REQUEST_TIMEOUT_MS: u32 = 30_000;

/// Sends one engine request and reads its answer whole, within `timeout_ms`.
pub(crate) async fn send(req: &HttpRequest, timeout_ms: u32) -> Result<Answer, String> {
    let abort = Rc::new(RefCell::new(Abort::new("the request was dropped")));
    let signal = abort.borrow().as_ref().and_then(Abort::signal);
    let on_time = {
        let abort = Rc::clone(&abort);
        guards::timeout(
            timeout_ms,
            Box::new(move || {
                if let Some(a) = abort.borrow_mut().take() {
                    a.abort(&format!("no answer within {timeout_ms} ms"));
                }
            }),
        )
    };
    let answer = exchange(req, signal.as_ref()).await;
    drop(on_time);
    if let Some(a) = abort.borrow_mut().take() {
        a.forget();
    }
    answer
}

async fn exchange(req: &HttpRequest, signal: Option<&AbortSignal>) -> Result<Answer, String> {
    let init = init(
        req.method.as_str(),
        &req.headers,
        req.body.as_deref(),
        req.keepalive,
        signal,
    )
    .map_err(|e| error_text(&e))?;
    let resp: Response = JsFuture::from(global_fetch(&req.url, &init))
        .await
        .map_err(|e| error_text(&e))?
        .unchecked_into();
    let retry_after = resp
        .headers()
        .get("retry-after")
        .ok()
        .flatten()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .map(Duration::from_secs);
    let body = match resp.text() {
        Ok(p) => JsFuture::from(p)
            .await
            .map_err(|e| error_text(&e))?
            .as_string()
            .unwrap_or_default(),
        Err(e) => return Err(error_text(&e)),
    };
    Ok(Answer {
        status: resp.status(),
        body,
        retry_after,
    })
}

/// An open stream response: its status and, for a 200, a reader of its body.
pub(crate) struct Stream {
    pub status: u16,
    reader: Option<ReadableStreamDefaultReader>,
}

/// Opens the event stream with `GET`; `signal` aborts it.
pub(crate) async fn open_stream(
    url: &str,
    headers: &[(&'static str, String)],
    signal: &AbortSignal,
) -> Result<Stream, String> {
    let init = init("GET", headers, None, false, Some(signal)).map_err(|e| error_text(&e))?;
    let resp: Response = JsFuture::from(global_fetch(url, &init))
        .await
        .map_err(|e| error_text(&e))?
        .unchecked_into();
    let status = resp.status();
    let reader = match (status, resp.body()) {
        (200, Some(body)) => Some(
            body.get_reader()
                .dyn_into::<ReadableStreamDefaultReader>()
                .map_err(|_| "the stream body has no default reader".to_owned())?,
        ),
        _ => None,
    };
    Ok(Stream { status, reader })
}

impl Stream {
    /// Reads the next chunk into `buf` (replacing its contents); `Ok(false)` at the end.
    /// `buf` is reused across chunks, so steady reading allocates nothing.
    pub(crate) async fn read(&mut self, buf: &mut Vec<u8>) -> Result<bool, String> {
        let Some(reader) = &self.reader else {
            return Ok(false);
        };
        let step: Object = JsFuture::from(reader.read())
            .await
            .map_err(|e| error_text(&e))?
            .unchecked_into();
        let done = crate::js::get(&step, "done").is_truthy();
        if done {
            return Ok(false);
        }
        let value: Uint8Array = Reflect::get(&step, &"value".into())
            .map_err(|e| error_text(&e))?
            .dyn_into()
            .map_err(|_| "the stream gave a chunk that is not bytes".to_owned())?;
        buf.resize(value.length() as usize, 0);
        value.copy_to(buf);
        Ok(true)
    }
}
