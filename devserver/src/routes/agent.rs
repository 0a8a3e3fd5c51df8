//! The reference-server extensions: the agent's side. Create a session, see the tools the
//! model sees, start and end runs, call a tool and long-poll its outcome, read the event log.

use crate::body::JsonBody;
use crate::error::HttpError;
use crate::extract::Ids;
use crate::state::{Hub, Session};
use axum::extract::{Extension, State};
use axum::http::{StatusCode, Uri};
use axum::Json;
use client_tools_sessions::{CallView, RunView};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use tokio::time::{timeout_at, Instant};

type Ext = Extension<Arc<Session>>;

/// The longest `?wait=` of a long poll, in seconds (the default result timeout).
const WAIT_MAX_SECONDS: f64 = 300.0;
/// The most events one `GET …/events` answers.
const EVENTS_PAGE_MAX: usize = 10_000;

#[derive(Deserialize)]
pub struct RunPath {
    run_id: String,
}

#[derive(Deserialize)]
pub struct RunCallPath {
    run_id: String,
    call_id: String,
}

/// The body of `POST …/runs/{run_id}/calls`.
#[derive(Deserialize)]
pub struct CallToolRequest {
    tool: String,
    #[serde(default)]
    arguments: Value,
}

/// `POST /v1/sessions` → `201 {"id", "token"}` (the API key is checked by
/// [`crate::guard::creation_guard`]). Fails with 429 past `--max-sessions`.
pub async fn create_session(
    State(hub): State<Arc<Hub>>,
) -> Result<(StatusCode, Json<Value>), HttpError> {
    let session = hub.create_session()?;
    Ok((
        StatusCode::CREATED,
        Json(json!({"id": session.id, "token": session.token})),
    ))
}

/// `POST …/token` → `200 {"token"}`: a fresh token for the session; the one the request
/// carried (and any other the session had) is refused with 401 from now on, so that a test
/// can show a client that outlives its token. The API key may rotate any session's token.
pub async fn rotate_token(State(hub): State<Arc<Hub>>, Extension(session): Ext) -> Json<Value> {
    Json(json!({"token": hub.rotate_token(&session.id)}))
}

/// `GET …/tools` → `{"tools": [{"name": "client__web__x", "description", "parameters",
/// "client_id"}]}`.
pub async fn tools(Extension(session): Ext) -> Json<Value> {
    Json(json!({"tools": session.model_tools()}))
}

/// `POST …/runs` → `201 {"id"}`.
pub async fn start_run(Extension(session): Ext) -> Result<(StatusCode, Json<Value>), HttpError> {
    let id = session.start_run()?;
    Ok((StatusCode::CREATED, Json(json!({"id": id}))))
}

/// `GET …/runs` → `{"runs": [{"id", "state", "started_at", "calls": [...]}]}`.
pub async fn runs(Extension(session): Ext) -> Json<Value> {
    Json(json!({"runs": session.runs()}))
}

/// `GET …/runs/{run_id}` → one run with its calls.
pub async fn run(
    Extension(session): Ext,
    Ids(p): Ids<RunPath>,
) -> Result<Json<RunView>, HttpError> {
    session
        .runs()
        .into_iter()
        .find(|r| r.id == p.run_id)
        .map(Json)
        .ok_or_else(|| HttpError::not_found(format!("no run {} in this session", p.run_id)))
}

/// `DELETE …/runs/{run_id}` → `204`; its pending calls fail with `run_gone`.
pub async fn cancel_run(
    Extension(session): Ext,
    Ids(p): Ids<RunPath>,
) -> Result<StatusCode, HttpError> {
    session.end_run(&p.run_id, true)?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST …/runs/{run_id}/complete` → `200 {"id", "state": "completed"}`; its pending calls
/// fail with `run_gone`.
pub async fn complete_run(
    Extension(session): Ext,
    Ids(p): Ids<RunPath>,
) -> Result<Json<Value>, HttpError> {
    session.end_run(&p.run_id, false)?;
    Ok(Json(json!({"id": p.run_id, "state": "completed"})))
}

/// `POST …/runs/{run_id}/calls` `{"tool", "arguments"}` → `201 {"call_id"}`.
pub async fn call_tool(
    Extension(session): Ext,
    Ids(p): Ids<RunPath>,
    JsonBody(req): JsonBody<CallToolRequest>,
) -> Result<(StatusCode, Json<Value>), HttpError> {
    let call_id = session.dispatch(&p.run_id, &req.tool, req.arguments)?;
    Ok((StatusCode::CREATED, Json(json!({"call_id": call_id}))))
}

/// `GET …/runs/{run_id}/calls/{call_id}?wait=SECONDS` → the call, once it settles or the
/// wait runs out (then `"state": "pending"`). `wait` is 0 to 300, fractions allowed.
pub async fn wait_call(
    Extension(session): Ext,
    Ids(p): Ids<RunCallPath>,
    uri: Uri,
) -> Result<Json<CallView>, HttpError> {
    let wait = match query_value(&uri, "wait") {
        None => 0.0,
        Some(v) => match v.parse::<f64>() {
            Ok(s) if (0.0..=WAIT_MAX_SECONDS).contains(&s) => s,
            _ => {
                return Err(HttpError::invalid(
                    "wait",
                    format!("{v:?}: seconds from 0 to {WAIT_MAX_SECONDS}"),
                ))
            }
        },
    };
    let until = Instant::now() + Duration::from_secs_f64(wait);
    // Subscribed before the read: an event (a settle emits one) after it wakes the wait.
    let mut events = session.subscribe();
    loop {
        let view = session.call_view(&p.run_id, &p.call_id)?;
        if view.state != "pending" || Instant::now() >= until {
            return Ok(Json(view));
        }
        match timeout_at(until, events.changed()).await {
            Ok(Ok(())) => continue,
            _ => return Ok(Json(session.call_view(&p.run_id, &p.call_id)?)),
        }
    }
}

/// `GET …/events?after=N&limit=M` → the events after id N still held, in order:
/// `{"events": [{"id", "type", "data"}], "oldest_id", "last_id"}`.
pub async fn events(Extension(session): Ext, uri: Uri) -> Result<Json<Value>, HttpError> {
    let number = |name: &str, default: u64| -> Result<u64, HttpError> {
        match query_value(&uri, name) {
            None => Ok(default),
            Some(v) => v
                .parse::<u64>()
                .map_err(|_| HttpError::invalid(name, format!("{v:?} is not a whole number"))),
        }
    };
    let after = number("after", 0)?;
    let limit = number("limit", EVENTS_PAGE_MAX as u64)?.min(EVENTS_PAGE_MAX as u64) as usize;
    let st = session.core();
    let events: Vec<Value> = st
        .log
        .page_after(after, limit)
        .iter()
        .map(|e| {
            let data: Value = serde_json::from_str(&e.data).unwrap_or(Value::Null);
            json!({"id": e.id, "type": e.kind, "data": data})
        })
        .collect();
    Ok(Json(json!({
        "events": events,
        "oldest_id": st.log.oldest_id(),
        "last_id": st.log.last_id(),
    })))
}

/// The value of `name` in the query string, if present.
fn query_value<'a>(uri: &'a Uri, name: &str) -> Option<&'a str> {
    uri.query()?
        .split('&')
        .filter_map(|pair| pair.split_once('=').or(Some((pair, ""))))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}
