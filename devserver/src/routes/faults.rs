//! `GET`, `POST` and `DELETE /v1/sessions/{session_id}/faults`: read, replace and clear the
//! session's injected faults (see [`crate::faults::Faults`] and devserver/README.md).

use crate::body::JsonBody;
use crate::error::HttpError;
use crate::faults::Faults;
use crate::state::{lock, Session};
use axum::extract::Extension;
use axum::http::StatusCode;
use axum::Json;
use std::sync::Arc;

/// The faults in force now (a `fail_requests.count` shows what is left).
pub async fn show(Extension(session): Extension<Arc<Session>>) -> Json<Faults> {
    Json(lock(&session.faults).clone())
}

/// Replaces the faults with the body; 400 names a field out of range or unknown.
pub async fn set(
    Extension(session): Extension<Arc<Session>>,
    JsonBody(faults): JsonBody<Faults>,
) -> Result<Json<Faults>, HttpError> {
    faults.validate()?;
    *lock(&session.faults) = faults.clone();
    Ok(Json(faults))
}

/// Turns every fault off.
pub async fn clear(Extension(session): Extension<Arc<Session>>) -> StatusCode {
    *lock(&session.faults) = Faults::default();
    StatusCode::NO_CONTENT
}
