//! The client's routes of PROTOCOL.md: register, ping, leave, replace the tools, read the
//! pending calls, ack and answer a call.

use crate::body::JsonBody;
use crate::error::HttpError;
use crate::extract::Ids;
use crate::state::Session;
use axum::extract::Extension;
use axum::http::StatusCode;
use axum::Json;
use client_tools_core::protocol::{
    AckAnswer, CallResult, ClientInfo, PendingCalls, PingAnswer, RegisterRequest,
    ReplaceToolsRequest,
};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

type Ext = Extension<Arc<Session>>;

#[derive(Deserialize)]
pub struct ClientPath {
    client_id: String,
}

#[derive(Deserialize)]
pub struct CallPath {
    client_id: String,
    call_id: String,
}

/// `POST …/clients` → `201` with the client object.
pub async fn register(
    Extension(session): Ext,
    JsonBody(req): JsonBody<RegisterRequest>,
) -> Result<(StatusCode, Json<ClientInfo>), HttpError> {
    Ok((StatusCode::CREATED, Json(session.register(req)?)))
}

/// `GET …/clients` → the live clients (for the console).
pub async fn list(Extension(session): Ext) -> Json<Value> {
    Json(json!({"clients": session.clients()}))
}

/// `POST …/clients/{client_id}/ping` → `{"expires_at"}`.
pub async fn ping(
    Extension(session): Ext,
    Ids(p): Ids<ClientPath>,
) -> Result<Json<PingAnswer>, HttpError> {
    let expires_at = session.ping(&p.client_id)?;
    Ok(Json(PingAnswer { expires_at }))
}

/// `DELETE …/clients/{client_id}` → `204`.
pub async fn leave(
    Extension(session): Ext,
    Ids(p): Ids<ClientPath>,
) -> Result<StatusCode, HttpError> {
    session.leave(&p.client_id)?;
    Ok(StatusCode::NO_CONTENT)
}

/// `PUT …/clients/{client_id}/tools` → `200` with the client object.
pub async fn replace_tools(
    Extension(session): Ext,
    Ids(p): Ids<ClientPath>,
    JsonBody(req): JsonBody<ReplaceToolsRequest>,
) -> Result<Json<ClientInfo>, HttpError> {
    Ok(Json(session.replace_tools(&p.client_id, req.tools)?))
}

/// `GET …/clients/{client_id}/calls` → the calls dispatched to it, not settled.
pub async fn pending_calls(
    Extension(session): Ext,
    Ids(p): Ids<ClientPath>,
) -> Result<Json<PendingCalls>, HttpError> {
    let calls = session.pending_calls(&p.client_id)?;
    Ok(Json(PendingCalls { calls }))
}

/// `POST …/calls/{call_id}/ack` → `{"result_deadline"}`.
pub async fn ack(
    Extension(session): Ext,
    Ids(p): Ids<CallPath>,
) -> Result<Json<AckAnswer>, HttpError> {
    let result_deadline = session.ack(&p.client_id, &p.call_id)?;
    Ok(Json(AckAnswer { result_deadline }))
}

/// `POST …/calls/{call_id}/result` → `200 {}`.
pub async fn result(
    Extension(session): Ext,
    Ids(p): Ids<CallPath>,
    JsonBody(result): JsonBody<CallResult>,
) -> Result<Json<Value>, HttpError> {
    session.answer(&p.client_id, &p.call_id, result)?;
    Ok(Json(json!({})))
}
