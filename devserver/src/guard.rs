//! What runs before every `/v1/sessions/{session_id}/…` route: injected faults, then the
//! bearer token (401 none or unknown, 404 unknown session, 403 another session's token),
//! then `Idempotency-Key`; the session is handed to the route as an extension.

use crate::error::HttpError;
use crate::idempotency;
use crate::state::{lock, Bearer, Hub};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use std::time::Duration;

/// The middleware of the session routes.
pub async fn session_guard(State(hub): State<Arc<Hub>>, mut req: Request, next: Next) -> Response {
    let path = req.uri().path().to_owned();
    let session_id = path
        .strip_prefix("/v1/sessions/")
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_default()
        .to_owned();
    let session = hub.session(&session_id);
    let mut delay_ms = 0;
    // The fault routes themselves never fail, so a test can always turn faults off.
    let is_faults_route = path == format!("/v1/sessions/{session_id}/faults");
    if let (Some(s), false) = (&session, is_faults_route) {
        let mut faults = lock(&s.faults);
        if let Some(error) = faults.intercept(&path) {
            return error.into_response();
        }
        delay_ms = faults.delay_ms;
    }
    let bearer = match bearer_token(req.headers()) {
        Ok(token) => hub.bearer(token),
        Err(e) => return e.into_response(),
    };
    let Some(bearer) = bearer else {
        return HttpError::unauthorized("the bearer token is not known here").into_response();
    };
    let Some(session) = session else {
        return HttpError::not_found(format!("no session {session_id}")).into_response();
    };
    if let Bearer::Session(id) = &bearer {
        if *id != session.id {
            return HttpError::forbidden(format!(
                "this token belongs to another session, not {session_id}"
            ))
            .into_response();
        }
    }
    req.extensions_mut().insert(session.clone());
    let response = idempotency::run(&*session, req, next).await;
    if delay_ms > 0 {
        tokio::time::sleep(Duration::from_millis(delay_ms)).await;
    }
    response
}

/// The middleware of `POST /v1/sessions`: with `--api-key`, only that key may create a
/// session; then `Idempotency-Key`, kept by the hub, so a retried creation makes one session.
pub async fn creation_guard(State(hub): State<Arc<Hub>>, req: Request, next: Next) -> Response {
    if hub.config.api_key.is_some() {
        let token = match bearer_token(req.headers()) {
            Ok(token) => token,
            Err(e) => return e.into_response(),
        };
        if !matches!(hub.bearer(token), Some(Bearer::ApiKey)) {
            return HttpError::unauthorized("creating a session needs the server's API key")
                .into_response();
        }
    }
    idempotency::run(&*hub, req, next).await
}

/// The token of `Authorization: Bearer <token>`, or 401 saying what is missing.
pub fn bearer_token(headers: &HeaderMap) -> Result<&str, HttpError> {
    let value = headers
        .get(header::AUTHORIZATION)
        .ok_or_else(|| HttpError::unauthorized("missing Authorization: Bearer <token>"))?;
    let value = value
        .to_str()
        .map_err(|_| HttpError::unauthorized("the Authorization header is not ASCII"))?;
    match value.split_once(' ') {
        Some((scheme, token))
            if scheme.eq_ignore_ascii_case("bearer") && !token.trim().is_empty() =>
        {
            Ok(token.trim())
        }
        _ => Err(HttpError::unauthorized(
            "the Authorization header must be `Bearer <token>`",
        )),
    }
}
