//! The router: every route of PROTOCOL.md and of the reference-server extensions (the turn-based
//! simulator included), with CORS,
//! the 1 MiB body limit, and the session guard (faults, auth, idempotency) around them.

pub mod agent;
pub mod clients;
pub mod faults;
pub mod turns;

use crate::body::too_large;
use crate::error::HttpError;
use crate::guard::{creation_guard, session_guard};
use crate::state::Hub;
use crate::{cors, statics, stream};
use axum::extract::{DefaultBodyLimit, Request};
use axum::http::header;
use axum::middleware::{from_fn, from_fn_with_state, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};
use axum::Router;
use client_tools_core::protocol::limits::BODY_MAX_BYTES;
use std::sync::Arc;

/// The whole application for a hub.
pub fn router(hub: Arc<Hub>) -> Router {
    const S: &str = "/v1/sessions/{session_id}";
    let p = |rest: &str| format!("{S}{rest}");
    let sessions = Router::new()
        .route(&p("/clients"), post(clients::serve).get(clients::list))
        .route(&p("/clients/{*rest}"), any(clients::serve))
        .route(&p("/stream"), get(stream::open))
        .route(&p("/events"), get(agent::events))
        .route(&p("/tools"), get(agent::tools))
        .route(&p("/token"), post(agent::rotate_token))
        .route(&p("/runs"), post(agent::start_run).get(agent::runs))
        .route(
            &p("/runs/{run_id}"),
            get(agent::run).delete(agent::cancel_run),
        )
        .route(&p("/runs/{run_id}/complete"), post(agent::complete_run))
        .route(&p("/runs/{run_id}/calls"), post(agent::call_tool))
        .route(&p("/runs/{run_id}/calls/{call_id}"), get(agent::wait_call))
        .route(
            &p("/faults"),
            get(faults::show).post(faults::set).delete(faults::clear),
        )
        .route_layer(from_fn_with_state(hub.clone(), session_guard));
    Router::new()
        .route(
            "/v1/sessions",
            post(agent::create_session)
                .route_layer(from_fn_with_state(hub.clone(), creation_guard)),
        )
        .merge(sessions)
        .merge(turns::routes())
        .merge(crate::ws::router(hub.clone()))
        .fallback(statics::serve)
        .method_not_allowed_fallback(|| async { HttpError::method_not_allowed() })
        .layer(DefaultBodyLimit::max(BODY_MAX_BYTES))
        .layer(from_fn(refuse_large_bodies))
        .layer(from_fn(cors::cors))
        .with_state(hub)
}

/// 413 for a declared `Content-Length` over 1 MiB, before anything reads it. A chunked body
/// over the limit fails the same way when a route reads it (DefaultBodyLimit).
async fn refuse_large_bodies(req: Request, next: Next) -> Response {
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > BODY_MAX_BYTES as u64) {
        return too_large().into_response();
    }
    next.run(req).await
}
