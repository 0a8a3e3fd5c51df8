//! The HTTP side: one pooled hyper client (HTTP/1.1, rustls for `https://`) that sends the
//! engine's requests and reads the event stream. It knows nothing of the protocol: it turns
//! requests into answers and a stream into chunks of bytes.

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::{Request, Response};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use std::time::Duration;

/// The largest answer body read; the protocol's answers are a few kilobytes, and a server
/// gone wrong must not fill the worker's memory.
const MAX_ANSWER_BYTES: usize = 8 * 1024 * 1024;

/// A whole answer to a request.
pub(crate) struct Answer {
    pub status: u16,
    pub body: String,
    /// `Retry-After` in seconds, as ms.
    pub retry_after_ms: Option<u64>,
}

/// One connection pool for every request of a client.
#[derive(Clone)]
pub(crate) struct Http {
    client: Client<hyper_rustls::HttpsConnector<HttpConnector>, Full<Bytes>>,
}

impl Http {
    pub(crate) fn new() -> Http {
        let connector = hyper_rustls::HttpsConnectorBuilder::new()
            .with_webpki_roots()
            .https_or_http()
            .enable_http1()
            .build();
        Http {
            client: Client::builder(TokioExecutor::new()).build(connector),
        }
    }

    async fn start(
        &self,
        method: &str,
        url: &str,
        headers: &[(&'static str, String)],
        body: Option<String>,
    ) -> Result<Response<Incoming>, String> {
        let mut req = Request::builder().method(method).uri(url);
        for (name, value) in headers {
            req = req.header(*name, value);
        }
        let req = req
            .body(Full::new(Bytes::from(body.unwrap_or_default())))
            .map_err(|e| format!("bad request: {e}"))?;
        self.client.request(req).await.map_err(|e| error_chain(&e))
    }

    /// Sends a request and reads the whole answer, all within `timeout`.
    pub(crate) async fn send(
        &self,
        method: &str,
        url: &str,
        headers: &[(&'static str, String)],
        body: Option<String>,
        timeout: Duration,
    ) -> Result<Answer, String> {
        let whole = async {
            let resp = self.start(method, url, headers, body).await?;
            let status = resp.status().as_u16();
            let retry_after_ms = resp
                .headers()
                .get(hyper::header::RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .and_then(|s| s.trim().parse::<u64>().ok())
                .map(|s| s.saturating_mul(1000));
            let bytes = Limited::new(resp.into_body(), MAX_ANSWER_BYTES)
                .collect()
                .await
                .map_err(|e| format!("reading the answer: {e}"))?
                .to_bytes();
            Ok(Answer {
                status,
                body: String::from_utf8_lossy(&bytes).into_owned(),
                retry_after_ms,
            })
        };
        match tokio::time::timeout(timeout, whole).await {
            Ok(result) => result,
            Err(_) => Err(format!("no answer within {} ms", timeout.as_millis())),
        }
    }

    /// Opens a streaming `GET`: the status, and (for a 200) the body to read chunks from.
    pub(crate) async fn open_stream(
        &self,
        url: &str,
        headers: &[(&'static str, String)],
        timeout: Duration,
    ) -> Result<(u16, Incoming), String> {
        match tokio::time::timeout(timeout, self.start("GET", url, headers, None)).await {
            Ok(resp) => {
                let resp = resp?;
                Ok((resp.status().as_u16(), resp.into_body()))
            }
            Err(_) => Err(format!("no answer within {} ms", timeout.as_millis())),
        }
    }
}

/// The next chunk of a streaming body: `Ok(None)` at its end. Silence is the engine's to
/// time out (a connection that died without a word, a NAT that forgot it, stays silent).
pub(crate) async fn next_chunk(body: &mut Incoming) -> Result<Option<Bytes>, String> {
    loop {
        match body.frame().await {
            None => return Ok(None),
            Some(Err(e)) => return Err(error_chain(&e)),
            // Trailers carry no events: skip them.
            Some(Ok(frame)) => {
                if let Ok(data) = frame.into_data() {
                    return Ok(Some(data));
                }
            }
        }
    }
}

/// An error with its causes, so "client error (Connect)" says "connection refused" too.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
