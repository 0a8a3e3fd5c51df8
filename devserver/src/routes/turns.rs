//! A turn-based agent session with client function tools, simulated: the model's side is a
//! script. `POST /v1/turns/{session}:runSession` takes `{ inputs }` and answers the next step
//! as `{ outputs }`; a step in which the model calls client function tools answers their
//! `toolCalls` and blocks the session until a request brings a `toolResponses` entry for every
//! call, with the same `id`, `tool` and `displayName`.
//!
//! Agent routes (script the model's calls, as `…/runs/{run}/calls` does for Sessions runs):
//! - `POST /v1/turns` `{ script: [step…] }` → `201 { id, token }`; a step is
//!   `{ toolCalls: [{ tool, displayName?, args? }] }` or `{ text }`.
//! - `POST /v1/turns/{session}/steps` `{ steps: [step…] }` appends steps.
//! - `GET /v1/turns/{session}` → `{ id, state, pending, responses, inputs }`: what the client sent.
//!
//! Every route but the first needs `Authorization: Bearer <token>`.

use crate::body::{JsonBody, OptionalJsonBody};
use crate::error::HttpError;
use crate::guard::bearer_token;
use crate::ids::new_id;
use crate::state::lock;
use axum::extract::{Extension, Path};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

/// The most conversations the simulator keeps; the oldest goes first.
const CONVERSATIONS_MAX: usize = 1000;

/// One scripted conversation.
struct Conversation {
    token: String,
    steps: VecDeque<Value>,
    /// The calls the session is blocked on, in their order.
    pending: Vec<Value>,
    /// Every toolResponses entry accepted, in order.
    responses: Vec<Value>,
    /// Every request's `inputs`, in order.
    inputs: Vec<Value>,
    calls: u64,
    ended: bool,
}

#[derive(Default)]
struct Conversations {
    by_id: HashMap<String, Conversation>,
    order: VecDeque<String>,
}

type Shared = Arc<Mutex<Conversations>>;

/// The simulator's routes, with their own state.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/v1/turns", post(create))
        .route("/v1/turns/{session}", post(run_session).get(show))
        .route("/v1/turns/{session}/steps", post(add_steps))
        .layer(Extension(Shared::default()))
}

#[derive(Deserialize, Default)]
struct CreateBody {
    #[serde(default)]
    script: Vec<Value>,
}

#[derive(Deserialize)]
struct StepsBody {
    steps: Vec<Value>,
}

#[derive(Deserialize)]
struct RunBody {
    #[serde(default)]
    inputs: Vec<Value>,
}

/// Checks a script step: `{ toolCalls: [{ tool, displayName?, args? }] }` or `{ text }`.
fn check_step(step: &Value, field: &str) -> Result<(), HttpError> {
    if step.get("text").is_some_and(Value::is_string) {
        return Ok(());
    }
    let Some(calls) = step.get("toolCalls").and_then(Value::as_array) else {
        return Err(HttpError::invalid(
            field,
            format!("{field}: a step is {{ toolCalls: [...] }} or {{ text }}"),
        ));
    };
    for (i, c) in calls.iter().enumerate() {
        let f = format!("{field}.toolCalls[{i}]");
        if !c.get("tool").is_some_and(Value::is_string) {
            return Err(HttpError::invalid(
                &f,
                format!("{f}.tool: must be a string"),
            ));
        }
        if c.get("displayName").is_some_and(|d| !d.is_string()) {
            return Err(HttpError::invalid(
                &f,
                format!("{f}.displayName: must be a string"),
            ));
        }
    }
    Ok(())
}

fn check_steps(steps: &[Value], field: &str) -> Result<(), HttpError> {
    for (i, s) in steps.iter().enumerate() {
        check_step(s, &format!("{field}[{i}]"))?;
    }
    Ok(())
}

/// `POST /v1/turns` → `201 { id, token }`.
async fn create(
    Extension(turns): Extension<Shared>,
    OptionalJsonBody(body): OptionalJsonBody<CreateBody>,
) -> Result<(StatusCode, Json<Value>), HttpError> {
    check_steps(&body.script, "script")?;
    let (id, token) = (new_id("turns"), new_id("tok"));
    let mut t = lock(&turns);
    if t.order.len() == CONVERSATIONS_MAX {
        if let Some(old) = t.order.pop_front() {
            t.by_id.remove(&old);
        }
    }
    t.order.push_back(id.clone());
    t.by_id.insert(
        id.clone(),
        Conversation {
            token: token.clone(),
            steps: body.script.into(),
            pending: Vec::new(),
            responses: Vec::new(),
            inputs: Vec::new(),
            calls: 0,
            ended: false,
        },
    );
    Ok((StatusCode::CREATED, Json(json!({"id": id, "token": token}))))
}

/// Runs `f` on the conversation `id` if `headers` carry its token.
fn with<R>(
    turns: &Shared,
    id: &str,
    headers: &HeaderMap,
    f: impl FnOnce(&mut Conversation) -> Result<R, HttpError>,
) -> Result<R, HttpError> {
    let token = bearer_token(headers)?;
    let mut t = lock(turns);
    let c = t
        .by_id
        .get_mut(id)
        .ok_or_else(|| HttpError::not_found(format!("no turn-based session {id:?}")))?;
    if c.token != token {
        return Err(HttpError::unauthorized("this token is not the session's"));
    }
    f(c)
}

/// `POST /v1/turns/{session}/steps` `{ steps }` → `{ steps: N }` (the steps still to play).
async fn add_steps(
    Extension(turns): Extension<Shared>,
    Path(session): Path<String>,
    headers: HeaderMap,
    JsonBody(body): JsonBody<StepsBody>,
) -> Result<Json<Value>, HttpError> {
    check_steps(&body.steps, "steps")?;
    with(&turns, &session, &headers, |c| {
        c.steps.extend(body.steps);
        c.ended = false;
        Ok(Json(json!({"steps": c.steps.len()})))
    })
}

/// `GET /v1/turns/{session}` → what the client sent and what the session waits for.
async fn show(
    Extension(turns): Extension<Shared>,
    Path(session): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, HttpError> {
    with(&turns, &session, &headers, |c| {
        let state = if !c.pending.is_empty() {
            "blocked"
        } else if c.ended {
            "ended"
        } else {
            "waiting_input"
        };
        Ok(Json(json!({
            "id": session, "state": state, "pending": c.pending,
            "responses": c.responses, "inputs": c.inputs, "steps": c.steps.len(),
        })))
    })
}

/// `POST /v1/turns/{session}:runSession` `{ inputs }` → `{ outputs }`.
async fn run_session(
    Extension(turns): Extension<Shared>,
    Path(target): Path<String>, // `{session}:runSession`
    headers: HeaderMap,
    JsonBody(body): JsonBody<RunBody>,
) -> Result<Json<Value>, HttpError> {
    let Some(session) = target.strip_suffix(":runSession") else {
        return Err(HttpError::not_found(format!(
            "POST /v1/turns/{target}: did you mean /v1/turns/{target}:runSession?"
        )));
    };
    with(&turns, session, &headers, |c| {
        take_responses(c, &body.inputs)?;
        c.inputs.extend(body.inputs);
        Ok(Json(json!({"outputs": next_outputs(c)})))
    })
}

/// Reads the `toolResponses` of `inputs`: each must answer a pending call with its `id`,
/// `tool` and `displayName`, and all pending calls must be answered; else nothing is taken.
fn take_responses(c: &mut Conversation, inputs: &[Value]) -> Result<(), HttpError> {
    let mut answered: Vec<(usize, Value)> = Vec::new();
    for (i, input) in inputs.iter().enumerate() {
        let Some(tr) = input.get("toolResponses") else {
            continue;
        };
        let field = format!("inputs[{i}].toolResponses.toolResponses");
        let list = tr
            .get("toolResponses")
            .and_then(Value::as_array)
            .ok_or_else(|| HttpError::invalid(&field, format!("{field}: must be an array")))?;
        for (j, r) in list.iter().enumerate() {
            let f = format!("{field}[{j}]");
            let id = r.get("id").and_then(Value::as_str).unwrap_or_default();
            let Some(at) = c.pending.iter().position(|p| p["id"] == id) else {
                return Err(HttpError::invalid(
                    format!("{f}.id"),
                    format!("{f}.id: {id:?} is not a call the session waits for"),
                ));
            };
            if answered.iter().any(|(k, _)| *k == at) {
                return Err(HttpError::invalid(
                    format!("{f}.id"),
                    format!("{f}.id: {id:?} is answered twice"),
                ));
            }
            let call = &c.pending[at];
            for key in ["tool", "displayName"] {
                if r.get(key) != call.get(key) {
                    return Err(HttpError::invalid(
                        format!("{f}.{key}"),
                        format!(
                            "{f}.{key}: must echo the call's {key} {}, got {}",
                            call.get(key).unwrap_or(&Value::Null),
                            r.get(key).unwrap_or(&Value::Null)
                        ),
                    ));
                }
            }
            let response = r.get("response").and_then(Value::as_object);
            let shape_ok = response.is_some_and(|m: &Map<String, Value>| {
                m.len() == 1
                    && (m.contains_key("output") || m.get("error").is_some_and(Value::is_string))
            });
            if !shape_ok {
                return Err(HttpError::invalid(
                    format!("{f}.response"),
                    format!("{f}.response: must be {{ output }} or {{ error: string }}"),
                ));
            }
            answered.push((at, r.clone()));
        }
    }
    if answered.len() < c.pending.len() {
        let missing: Vec<&str> = c
            .pending
            .iter()
            .enumerate()
            .filter(|(k, _)| !answered.iter().any(|(a, _)| a == k))
            .filter_map(|(_, p)| p["id"].as_str())
            .collect();
        return Err(HttpError::conflict(
            "session_blocked",
            format!(
                "the session is blocked until toolResponses answer {}",
                missing.join(", ")
            ),
        ));
    }
    answered.sort_by_key(|(k, _)| *k);
    c.responses.extend(answered.into_iter().map(|(_, r)| r));
    c.pending.clear();
    Ok(())
}

/// Plays the next step: the model's text, or its tool calls (which block the session).
fn next_outputs(c: &mut Conversation) -> Value {
    let Some(step) = c.steps.pop_front() else {
        c.ended = true;
        return json!([{"text": "", "turnCompleted": true}]);
    };
    if let Some(text) = step.get("text") {
        c.ended = c.steps.is_empty();
        return json!([{"text": text, "turnCompleted": true}]);
    }
    let calls: Vec<Value> = step["toolCalls"]
        .as_array()
        .map(|calls| {
            calls
                .iter()
                .map(|call| {
                    c.calls += 1;
                    let mut out = Map::new();
                    out.insert("id".into(), json!(format!("exec-{}", c.calls)));
                    out.insert("tool".into(), call["tool"].clone());
                    out.insert(
                        "args".into(),
                        call.get("args").cloned().unwrap_or(json!({})),
                    );
                    if let Some(d) = call.get("displayName") {
                        out.insert("displayName".into(), d.clone());
                    }
                    Value::Object(out)
                })
                .collect()
        })
        .unwrap_or_default();
    c.pending = calls.clone();
    json!([{"toolCalls": {"toolCalls": calls}, "turnCompleted": true}])
}
