//! `fetch` for the engine's requests and for the event stream. Works in a window and in a
//! worker: `fetch` is taken from the global scope, not from `window`, unless the app gave its
//! own (the `fetch` option), which then carries every request and the stream. The request's options and
//! the response are read as plain JS objects (`js::set`, `js::get`, `js::call_method`), not
//! through a binding per property.

use super::guards::{self, Abort};
use crate::engine::HttpRequest;
use crate::js::JsRefCell;
use crate::js::{self, error_text};
use client_tools_core::time::Duration;
use js_sys::{Function, Promise, Uint8Array};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::AbortSignal;

/// What a request came back with.
pub(crate) struct Answer {
    pub status: u16,
    pub body: String,
    pub retry_after: Option<Duration>,
}

/// `fetch(url, init)` with `init` built as a plain object: method, headers (a record: every
/// name is distinct), body, keep-alive and signal. Resolves the `Response`; a refusal (a
/// network error, an abort, a header value the browser will not send) as its text. `with`:
/// the app's `fetch`, called as `fetch(url, init)`; what it returns is awaited as a promise.
async fn fetch(
    with: Option<&Function>,
    url: &str,
    method: &str,
    headers: &[(&'static str, String)],
    body: Option<&str>,
    keepalive: bool,
    signal: Option<&AbortSignal>,
) -> Result<JsValue, String> {
    let init = js::object();
    js::set(&init, "method", &JsValue::from_str(method));
    let h = js::object();
    for (name, value) in headers {
        js::set(&h, name, &JsValue::from_str(value));
    }
    js::set(&init, "headers", &h);
    if let Some(body) = body {
        js::set(&init, "body", &JsValue::from_str(body));
    }
    if keepalive {
        // The page may be gone before the answer comes.
        js::set(&init, "keepalive", &JsValue::TRUE);
    }
    if let Some(signal) = signal {
        js::set(&init, "signal", signal);
    }
    // The global scope's `fetch` is read when a request goes. It may be missing (a test
    // environment) or an app's wrapper that throws synchronously: `call2` catches either
    // (calling `undefined` throws), a failed request, never an exception through the wasm.
    let fetch = match with {
        Some(f) => f.clone(),
        None => js::get(&js_sys::global(), "fetch").unchecked_into(),
    };
    let sent = fetch
        .call2(&JsValue::UNDEFINED, &JsValue::from_str(url), &init)
        .map_err(|e| format!("fetch threw: {}", error_text(&e)))?;
    let sent = Promise::resolve(&sent);
    js::promise::settle(&sent).await
}

/// Sends one engine request (through `with`, else the global `fetch`) and reads its answer
/// whole, within `timeout_ms`.
pub(crate) async fn send(
    with: Option<&Function>,
    req: &HttpRequest,
    timeout_ms: u32,
) -> Result<Answer, String> {
    let abort = Abort::new("the request was dropped");
    let signal = abort.as_ref().and_then(Abort::signal);
    let abort = Rc::new(JsRefCell::new(abort));
    let on_time = {
        let abort = Rc::clone(&abort);
        guards::timeout(
            timeout_ms,
            Box::new(move || {
                if let Some(a) = abort.take() {
                    a.abort(&format!("no answer within {timeout_ms} ms"));
                }
            }),
        )
    };
    // Aborted, the engine's own text ("Fetch is aborted" in WebKit) gives way to the reason
    // (where the signal keeps one: Safari 15.4, Firefox 97).
    let answer = exchange(with, req, signal.as_ref()).await.map_err(|e| {
        match signal.as_ref().filter(|s| s.aborted()).map(|s| s.reason()) {
            Some(reason) if !reason.is_undefined() => error_text(&reason),
            _ => e,
        }
    });
    drop(on_time);
    if let Some(a) = abort.take() {
        a.forget();
    }
    answer
}

async fn exchange(
    with: Option<&Function>,
    req: &HttpRequest,
    signal: Option<&AbortSignal>,
) -> Result<Answer, String> {
    let resp = fetch(
        with,
        &req.url,
        req.method.as_str(),
        &req.headers,
        req.body.as_deref(),
        req.keepalive,
        signal,
    )
    .await?;
    let retry_after = retry_after(&resp);
    let body = match req.answer_limit {
        Some(limit) => read_at_most(&resp, limit).await?,
        None => {
            let text = js::call_method(&resp, "text", &[]).map_err(|e| error_text(&e))?;
            js::promise::settle(&text)
                .await?
                .as_string()
                .unwrap_or_default()
        }
    };
    Ok(Answer {
        status: status(&resp),
        body,
        retry_after,
    })
}

/// The first `limit` bytes of a response's body, read chunk by chunk (each read a task of its
/// own), the rest cancelled unread: a 28 MB pending-calls answer is not taken in whole.
async fn read_at_most(resp: &JsValue, limit: usize) -> Result<String, String> {
    let body = js::get(resp, "body");
    let reader = js::call_method(&body, "getReader", &[]).map_err(|e| error_text(&e))?;
    let mut bytes: Vec<u8> = Vec::new();
    while bytes.len() < limit {
        let read = js::call_method(&reader, "read", &[]).map_err(|e| error_text(&e))?;
        let step = js::promise::settle(&read).await?;
        if js::bool_prop(&step, "done") {
            break;
        }
        let chunk: Uint8Array = js::get(&step, "value")
            .dyn_into()
            .map_err(|_| "the answer gave a chunk that is not bytes".to_owned())?;
        let at = bytes.len();
        let take = (chunk.length() as usize).min(limit - at);
        bytes.resize(at + take, 0);
        chunk.subarray(0, take as u32).copy_to(&mut bytes[at..]);
    }
    if bytes.len() >= limit {
        // The rest is not wanted; a cancel that fails changes nothing for the answer.
        let _ = js::call_method(&reader, "cancel", &[]);
    }
    // Cut mid-character at the limit, the last call is incomplete anyway.
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// A response's status code.
fn status(resp: &JsValue) -> u16 {
    js::number_prop(resp, "status") as u16
}

/// A response's `Retry-After` in seconds, if it has one the engine can use.
fn retry_after(resp: &JsValue) -> Option<Duration> {
    let headers = js::get(resp, "headers");
    let value = js::call_method(&headers, "get", &[&JsValue::from_str("retry-after")]).ok()?;
    let secs = value.as_string()?.trim().parse::<u64>().ok()?;
    Some(Duration::from_secs(secs))
}

/// An open stream response: its status and, for a 200, a reader of its body.
pub(crate) struct Stream {
    pub status: u16,
    reader: Option<JsValue>,
}

/// Opens the event stream with `GET` (through `with`, else the global `fetch`); `signal`
/// aborts it.
pub(crate) async fn open_stream(
    with: Option<&Function>,
    url: &str,
    headers: &[(&'static str, String)],
    signal: &AbortSignal,
) -> Result<Stream, String> {
    let resp = fetch(with, url, "GET", headers, None, false, Some(signal)).await?;
    let status = status(&resp);
    let body = js::get(&resp, "body");
    let reader = if status == 200 && body.is_object() {
        let reader = js::call_method(&body, "getReader", &[]).ok();
        match reader.filter(|r| js::get(r, "read").is_function()) {
            Some(r) => Some(r),
            None => return Err("the stream body has no default reader".to_owned()),
        }
    } else {
        None
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
        let read = js::call_method(reader, "read", &[]).map_err(|e| error_text(&e))?;
        let step = js::promise::settle(&read).await?;
        if js::bool_prop(&step, "done") {
            return Ok(false);
        }
        let value: Uint8Array = js::get(&step, "value")
            .dyn_into()
            .map_err(|_| "the stream gave a chunk that is not bytes".to_owned())?;
        buf.resize(value.length() as usize, 0);
        value.copy_to(buf);
        Ok(true)
    }
}
