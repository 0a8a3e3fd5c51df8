//! A voice agent's WebSocket, simulated: the platform side of `WsTools` in its three dialects
//! (Cartesia, ElevenLabs, OpenAI Realtime), with the agent's routes to place a call on the
//! socket and long-poll how it settled, each dialect's documented rules enforced, and faults.
//!
//! - `GET /v1/sessions/{sid}/ws?dialect=cartesia|elevenlabs|openai-realtime&access_token=TOKEN`
//!   opens the socket (a browser cannot set headers on a WebSocket, so the session token rides
//!   in the query). A newer socket replaces the session's older one.
//! - `POST …/ws/calls` `{tool_name, parameters, expects_response, response_timeout_ms, fault,
//!   keep_response_open_ms}` → `201 {"call_id"}`; `409 no_socket` with none connected.
//! - `GET …/ws/calls/{call_id}?wait=SECONDS` → the call ([`sim::CallView`]).
//! - `GET …/ws/log` → `{violations, received, responses_created, connections, connected,
//!   response_active}`.
//! - `POST …/ws/frames` `{text}` sends a raw frame (not-a-call frames, malformed calls).
//!
//! The agent's routes take `Authorization: Bearer` like every session route.

pub mod sim;

use crate::body::JsonBody;
use crate::error::HttpError;
use crate::extract::Ids;
use crate::guard::session_guard;
use crate::state::{lock, Bearer, Hub, Session};
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Extension, State};
use axum::http::{StatusCode, Uri};
use axum::middleware::from_fn_with_state;
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use client_tools_core::adapters::ws::Dialect;
use client_tools_core::protocol::limits::BODY_MAX_BYTES;
use serde::Deserialize;
use serde_json::{json, Value};
use sim::{CallView, Conn, Sim, SimCall, ToSocket};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, Notify};
use tokio::time::{timeout_at, Instant};

/// How long the platform waits for a result when the call names no `response_timeout_ms`.
pub const RESPONSE_TIMEOUT_MS: u64 = 10_000;
/// The longest `response_timeout_ms` (and `keep_response_open_ms`): 5 minutes.
pub const RESPONSE_TIMEOUT_MAX_MS: u64 = 300_000;
/// The `drop_socket` fault drops the connection this long after sending the call.
pub const DROP_AFTER_MS: u64 = 100;
/// A response the client created with `response.create` lasts this long.
pub const RESPONSE_MS: u64 = 100;
/// The longest `?wait=` of the long poll, in seconds.
const WAIT_MAX_SECONDS: f64 = 300.0;

/// The simulators, one per session that used one.
#[derive(Default)]
pub struct Sims(Mutex<HashMap<String, Arc<Mutex<Sim>>>>);

impl Sims {
    fn get(&self, session_id: &str) -> Arc<Mutex<Sim>> {
        lock(&self.0)
            .entry(session_id.to_owned())
            .or_default()
            .clone()
    }
}

type SimsExt = Extension<Arc<Sims>>;

/// The simulator's routes, to merge into the router.
pub fn router(hub: Arc<Hub>) -> Router<Arc<Hub>> {
    const WS: &str = "/v1/sessions/{session_id}/ws";
    let agent = Router::new()
        .route(&format!("{WS}/calls"), post(place_call))
        .route(&format!("{WS}/calls/{{call_id}}"), get(wait_call))
        .route(&format!("{WS}/log"), get(log))
        .route(&format!("{WS}/frames"), post(send_frame))
        .route_layer(from_fn_with_state(hub, session_guard));
    Router::new()
        .route(WS, get(connect))
        .merge(agent)
        .layer(Extension(Arc::new(Sims::default())))
}

#[derive(Deserialize)]
pub struct SessionPath {
    session_id: String,
}

#[derive(Deserialize)]
pub struct CallPath {
    #[allow(dead_code)]
    session_id: String,
    call_id: String,
}

/// The value of `name` in the query string, if present.
fn query_value<'a>(uri: &'a Uri, name: &str) -> Option<&'a str> {
    uri.query()?
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// `GET …/ws?dialect=…&access_token=…`: 401/403/404 as the session routes, 400 for a missing
/// or unknown dialect or a request that is not a WebSocket upgrade.
async fn connect(
    State(hub): State<Arc<Hub>>,
    Extension(sims): SimsExt,
    Ids(p): Ids<SessionPath>,
    uri: Uri,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, HttpError> {
    let token = query_value(&uri, "access_token")
        .ok_or_else(|| HttpError::unauthorized("missing ?access_token=<session token>"))?;
    let bearer = hub
        .bearer(token)
        .ok_or_else(|| HttpError::unauthorized("the access token is not known here"))?;
    let session = hub
        .session(&p.session_id)
        .ok_or_else(|| HttpError::not_found(format!("no session {}", p.session_id)))?;
    if matches!(&bearer, Bearer::Session(id) if *id != session.id) {
        return Err(HttpError::forbidden(
            "this token belongs to another session",
        ));
    }
    let dialect = Dialect::parse(query_value(&uri, "dialect").unwrap_or_default())
        .map_err(|e| HttpError::invalid("dialect", e))?;
    let upgrade =
        upgrade.map_err(|e| HttpError::invalid_body(format!("not a WebSocket upgrade: {e}")))?;
    let sim = sims.get(&session.id);
    // A frame is a request body: the same 1 MiB limit.
    // The real SDKs ask for their platform's subprotocol (`convai`: @elevenlabs/client,
    // `realtime`: the OpenAI Realtime clients) and fail a socket that selects none.
    let upgrade = upgrade
        .max_message_size(BODY_MAX_BYTES)
        .protocols(["convai", "realtime"]);
    Ok(upgrade.on_upgrade(move |socket| serve(socket, sim, dialect)))
}

/// One connection: frames from the client go to the simulator, the simulator's go out.
async fn serve(mut socket: WebSocket, sim: Arc<Mutex<Sim>>, dialect: Dialect) {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let conn = {
        let mut s = lock(&sim);
        s.connections += 1;
        let id = s.connections;
        if let Some(old) = s.conn.take() {
            let _ = old
                .tx
                .send(ToSocket::Close(1000, "replaced by a newer socket".into()));
        }
        s.response_active = false;
        // What ElevenLabs sends first on every conversation (its SDK waits for it before
        // `startSession` resolves); the other dialects' platforms send nothing first.
        if dialect == Dialect::ElevenLabs {
            let frame = json!({"type": "conversation_initiation_metadata",
                "conversation_initiation_metadata_event": {"conversation_id": format!("conv_sim_{id}"),
                    "agent_output_audio_format": "pcm_16000", "user_input_audio_format": "pcm_16000"}});
            let _ = tx.send(ToSocket::Text(frame.to_string()));
        }
        s.conn = Some(Conn { id, dialect, tx });
        id
    };
    let reason = loop {
        tokio::select! {
            msg = socket.recv() => match msg {
                Some(Ok(Message::Text(text))) => {
                    let done = {
                        let mut s = lock(&sim);
                        s.received(conn, dialect, text.as_str());
                        std::mem::take(&mut s.pending_done)
                    };
                    for (c, id) in done {
                        let sim = sim.clone();
                        tokio::spawn(async move {
                            tokio::time::sleep(Duration::from_millis(RESPONSE_MS)).await;
                            lock(&sim).response_done(c, &id, Vec::new());
                        });
                    }
                }
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break "socket_closed",
                Some(Ok(_)) => {}
            },
            out = rx.recv() => match out {
                Some(ToSocket::Text(text)) => {
                    if socket.send(Message::Text(text.into())).await.is_err() {
                        break "socket_closed";
                    }
                }
                Some(ToSocket::Close(code, reason)) => {
                    let frame = CloseFrame { code, reason: reason.into() };
                    let _ = socket.send(Message::Close(Some(frame))).await;
                    break "socket_closed";
                }
                // Dropping the socket ends TCP without a close frame: the browser sees 1006.
                Some(ToSocket::Drop) | None => break "socket_dropped",
            },
        }
    };
    lock(&sim).ended(conn, reason);
}

/// A fault injected into one call.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Fault {
    /// Drop the connection [`DROP_AFTER_MS`] after sending the call, without a close frame.
    DropSocket,
    /// Send the call's frame twice.
    SendTwice,
}

fn yes() -> bool {
    true
}

/// The body of `POST …/ws/calls`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaceCall {
    tool_name: String,
    #[serde(default)]
    parameters: Value,
    /// Cartesia: false sends `expects_response: false` (the call is done once sent).
    #[serde(default = "yes")]
    expects_response: bool,
    #[serde(default)]
    response_timeout_ms: Option<u64>,
    #[serde(default)]
    fault: Option<Fault>,
    /// OpenAI Realtime: `response.done` comes this long after the call (default at once).
    #[serde(default)]
    keep_response_open_ms: u64,
}

/// `POST …/ws/calls` → `201 {"call_id"}`.
async fn place_call(
    Extension(session): Extension<Arc<Session>>,
    Extension(sims): SimsExt,
    JsonBody(req): JsonBody<PlaceCall>,
) -> Result<(StatusCode, Json<Value>), HttpError> {
    if req
        .response_timeout_ms
        .is_some_and(|ms| ms == 0 || ms > RESPONSE_TIMEOUT_MAX_MS)
    {
        return Err(HttpError::invalid(
            "response_timeout_ms",
            format!("1 to {RESPONSE_TIMEOUT_MAX_MS}"),
        ));
    }
    if req.keep_response_open_ms > RESPONSE_TIMEOUT_MAX_MS {
        return Err(HttpError::invalid(
            "keep_response_open_ms",
            format!("at most {RESPONSE_TIMEOUT_MAX_MS}"),
        ));
    }
    let sim = sims.get(&session.id);
    let mut s = lock(&sim);
    let (conn, dialect) = match &s.conn {
        Some(c) => (c.id, c.dialect),
        None => {
            return Err(HttpError::conflict(
                "no_socket",
                "no socket is connected to this session's simulator",
            ))
        }
    };
    s.next_id += 1;
    let n = s.next_id;
    let expects = req.expects_response || dialect != Dialect::Cartesia;
    let (call_id, frame) = match dialect {
        Dialect::Cartesia => {
            let id = format!("tc_{n}");
            let f = json!({"type": "client_tool_call", "tool_call_id": id, "tool_name": req.tool_name,
                           "parameters": req.parameters, "expects_response": expects});
            (id, f)
        }
        Dialect::ElevenLabs => {
            let id = format!("toolu_{n}");
            let f = json!({"type": "client_tool_call", "client_tool_call": {"tool_name": req.tool_name,
                           "tool_call_id": id, "parameters": req.parameters, "event_id": n}});
            (id, f)
        }
        Dialect::OpenAiRealtime => {
            let id = format!("call_{n}");
            let f = json!({"type": "response.function_call_arguments.done", "event_id": format!("evt_{n}"),
                           "response_id": format!("resp_{n}"), "item_id": format!("item_{n}"), "output_index": 0,
                           "call_id": id, "name": req.tool_name, "arguments": req.parameters.to_string()});
            (id, f)
        }
    };
    let settled = Arc::new(Notify::new());
    let view = CallView {
        call_id: call_id.clone(),
        tool_name: req.tool_name.clone(),
        state: if expects { "pending" } else { "dispatched" },
        result: None,
        is_error: None,
        error_type: None,
        reason: None,
        results_received: 0,
    };
    let call = SimCall {
        view,
        conn,
        expects_response: expects,
        settled,
    };
    s.insert_call(call_id.clone(), call);
    let response_id = format!("resp_{n}");
    if dialect == Dialect::OpenAiRealtime {
        s.response_started(conn, &response_id);
    }
    let copies = if req.fault == Some(Fault::SendTwice) {
        2
    } else {
        1
    };
    // Realtime: the platform also sends the finished item as `response.output_item.done`
    // (what @openai/agents-realtime dispatches on); WsTools reads the frame above.
    let item_done = (dialect == Dialect::OpenAiRealtime).then(|| {
        json!({"type": "response.output_item.done", "event_id": format!("evt_{n}_item"),
               "response_id": response_id, "output_index": 0,
               "item": {"type": "function_call", "id": frame["item_id"], "status": "completed",
                        "call_id": call_id, "name": req.tool_name, "arguments": frame["arguments"]}})
    });
    for _ in 0..copies {
        if let Some(c) = &s.conn {
            let _ = c.tx.send(ToSocket::Text(frame.to_string()));
            if let Some(item) = &item_done {
                let _ = c.tx.send(ToSocket::Text(item.to_string()));
            }
        }
    }
    drop(s);
    if dialect == Dialect::OpenAiRealtime {
        let item = json!({"type": "function_call", "id": frame["item_id"], "status": "completed",
                          "call_id": call_id, "name": req.tool_name, "arguments": frame["arguments"]});
        let (sim, wait) = (sim.clone(), req.keep_response_open_ms);
        let end = move || lock(&sim).response_done(conn, &response_id, vec![item]);
        if wait == 0 {
            end();
        } else {
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(wait)).await;
                end();
            });
        }
    }
    if expects {
        let (sim, id) = (sim.clone(), call_id.clone());
        let ms = req.response_timeout_ms.unwrap_or(RESPONSE_TIMEOUT_MS);
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(ms)).await;
            lock(&sim).settle(&id, |v| {
                v.state = "timed_out";
                v.result = Some("Tool call timed out".to_owned());
                v.is_error = Some(true);
            });
        });
    }
    if req.fault == Some(Fault::DropSocket) {
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(DROP_AFTER_MS)).await;
            let s = lock(&sim);
            if let Some(c) = s.conn.as_ref().filter(|c| c.id == conn) {
                let _ = c.tx.send(ToSocket::Drop);
            }
        });
    }
    Ok((StatusCode::CREATED, Json(json!({"call_id": call_id}))))
}

/// `GET …/ws/calls/{call_id}?wait=SECONDS` → the call once it settles or the wait ends.
async fn wait_call(
    Extension(session): Extension<Arc<Session>>,
    Extension(sims): SimsExt,
    Ids(p): Ids<CallPath>,
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
    let sim = sims.get(&session.id);
    let view = || -> Result<(CallView, Arc<Notify>), HttpError> {
        let s = lock(&sim);
        let call = s
            .calls
            .get(&p.call_id)
            .ok_or_else(|| HttpError::not_found(format!("no call {} on the socket", p.call_id)))?;
        Ok((call.view.clone(), call.settled.clone()))
    };
    loop {
        let (v, settled) = view()?;
        if v.state != "pending" || Instant::now() >= until {
            return Ok(Json(v));
        }
        let notified = settled.notified();
        tokio::pin!(notified);
        notified.as_mut().enable();
        // It may have settled between the read and `enable`: read again before waiting.
        let (v, _) = view()?;
        if v.state != "pending" {
            return Ok(Json(v));
        }
        if timeout_at(until, notified).await.is_err() {
            return Ok(Json(view()?.0));
        }
    }
}

/// `GET …/ws/log` → what the clients sent and every rule they broke.
async fn log(Extension(session): Extension<Arc<Session>>, Extension(sims): SimsExt) -> Json<Value> {
    let sim = sims.get(&session.id);
    let s = lock(&sim);
    Json(json!({
        "violations": s.violations,
        "received": s.received,
        "responses_created": s.responses_created,
        "connections": s.connections,
        "connected": s.conn.is_some(),
        "response_active": s.response_active,
    }))
}

/// The body of `POST …/ws/frames`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFrame {
    text: String,
}

/// `POST …/ws/frames` `{text}` → `204`, the frame sent on the session's socket.
async fn send_frame(
    Extension(session): Extension<Arc<Session>>,
    Extension(sims): SimsExt,
    JsonBody(req): JsonBody<RawFrame>,
) -> Result<StatusCode, HttpError> {
    let sim = sims.get(&session.id);
    let s = lock(&sim);
    let c = s.conn.as_ref().ok_or_else(|| {
        HttpError::conflict(
            "no_socket",
            "no socket is connected to this session's simulator",
        )
    })?;
    let _ = c.tx.send(ToSocket::Text(req.text));
    Ok(StatusCode::NO_CONTENT)
}
