//! The client's routes of PROTOCOL.md (register, ping, leave, replace the tools, read the
//! pending calls, ack and answer a call) served by the shared sans-I/O router,
//! [`SessionCore::handle`](client_tools_sessions::SessionCore::handle), as the SDK's in-page
//! test agent serves them: axum only reads the request and writes the answer. The session
//! guard (faults, auth, idempotency) and the body limit run before.

use crate::body::read;
use crate::state::Session;
use axum::body::Body;
use axum::extract::{Extension, Request};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};
use std::sync::Arc;

type Ext = Extension<Arc<Session>>;

/// Every method on `…/clients` and `…/clients/{…}`: the path under the session, as it came
/// (percent-encoded: the router decodes the ids), the method and the body go to the shared
/// router; its answer comes back as is.
pub async fn serve(Extension(session): Ext, req: Request) -> Response {
    let method = req.method().as_str().to_owned();
    let prefix = format!("/v1/sessions/{}", session.id);
    let path = req
        .uri()
        .path()
        .strip_prefix(&prefix)
        .unwrap_or_default()
        .to_owned();
    let body = match read(req, &()).await {
        Ok(bytes) => bytes,
        Err(e) => return e.into_response(),
    };
    let answer = session.handle(&method, &path, &body);
    let status = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = if answer.status == 204 {
        status.into_response()
    } else {
        let mut r = Response::new(Body::from(answer.body));
        *r.status_mut() = status;
        r.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        r
    };
    if let Some(seconds) = answer.retry_after {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
    }
    response
}

/// `GET …/clients` → the live clients (for the console; not a client route).
pub async fn list(Extension(session): Ext) -> Json<Value> {
    Json(json!({"clients": session.clients()}))
}
